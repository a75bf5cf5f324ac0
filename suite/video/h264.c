/* The H.264 picture of h264.h, written by the syntax of ITU-T H.264
 * 7.3 (slice header, slice data, macroblock layer with mb_type I_PCM) and
 * 7.4.1 (emulation prevention). */
#include "h264.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bits {
	uint8_t *b;
	size_t n, cap; /* bytes completed */
	uint32_t acc, nacc;
};

static void put_bit(struct bits *w, uint32_t bit)
{
	w->acc = (w->acc << 1) | (bit & 1);
	if (++w->nacc == 8) {
		if (w->n == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 1024;
			w->b = realloc(w->b, w->cap);
			if (!w->b)
				abort();
		}
		w->b[w->n++] = (uint8_t)w->acc;
		w->acc = w->nacc = 0;
	}
}

static void put_u(struct bits *w, uint32_t v, uint32_t nbits)
{
	while (nbits--)
		put_bit(w, v >> nbits);
}

/* ue(v): 9.1, Exp-Golomb. */
static void put_ue(struct bits *w, uint32_t v)
{
	uint32_t x = v + 1, len = 0;
	for (uint32_t t = x; t > 1; t >>= 1)
		len++;
	put_u(w, 0, len);
	put_u(w, x, len + 1);
}

static void put_se(struct bits *w, int32_t v)
{
	put_ue(w, v > 0 ? 2u * (uint32_t)v - 1u : 2u * (uint32_t)(-v));
}

static void align_zero(struct bits *w)
{
	while (w->nacc)
		put_bit(w, 0);
}

uint8_t vkqs_h264_luma(uint32_t x, uint32_t y)
{
	return (uint8_t)(16 + (x * 3 + y * 5 + (x / 16) * 37) % 224);
}

uint8_t vkqs_h264_cb(uint32_t x, uint32_t y)
{
	return (uint8_t)(16 + (x * 7 + y * 11) % 224);
}

uint8_t vkqs_h264_cr(uint32_t x, uint32_t y)
{
	return (uint8_t)(16 + (x * 13 + y * 3 + 100) % 224);
}

void vkqs_h264_idr_pcm(struct vkqs_h264_picture *p, uint32_t width, uint32_t height,
		       StdVideoH264ProfileIdc profile, StdVideoH264LevelIdc level)
{
	memset(p, 0, sizeof(*p));
	p->width = width;
	p->height = height;
	uint32_t mbw = width / 16, mbh = height / 16;

	StdVideoH264SequenceParameterSet *sps = &p->sps;
	sps->flags.frame_mbs_only_flag = 1;
	sps->flags.direct_8x8_inference_flag = 1;
	sps->profile_idc = profile;
	sps->level_idc = level;
	sps->chroma_format_idc = STD_VIDEO_H264_CHROMA_FORMAT_IDC_420;
	sps->seq_parameter_set_id = 0;
	sps->log2_max_frame_num_minus4 = 0;
	sps->pic_order_cnt_type = STD_VIDEO_H264_POC_TYPE_2;
	sps->max_num_ref_frames = 1;
	sps->pic_width_in_mbs_minus1 = mbw - 1;
	sps->pic_height_in_map_units_minus1 = mbh - 1;

	StdVideoH264PictureParameterSet *pps = &p->pps;
	pps->flags.deblocking_filter_control_present_flag = 1;
	pps->seq_parameter_set_id = 0;
	pps->pic_parameter_set_id = 0;
	pps->weighted_bipred_idc = STD_VIDEO_H264_WEIGHTED_BIPRED_IDC_DEFAULT;

	/* an IDR picture is a reference picture (7.4.1: nal_ref_idc != 0) */
	p->picture.flags.is_intra = 1;
	p->picture.flags.IdrPicFlag = 1;
	p->picture.flags.is_reference = 1;
	p->reference.FrameNum = 0;

	/* the slice RBSP */
	struct bits w = {0};
	put_ue(&w, 0);          /* first_mb_in_slice */
	put_ue(&w, 7);          /* slice_type: I, all slices of the picture */
	put_ue(&w, 0);          /* pic_parameter_set_id */
	put_u(&w, 0, 4);        /* frame_num, log2_max_frame_num = 4 */
	put_ue(&w, 0);          /* idr_pic_id */
	/* pic_order_cnt_type 2: nothing; dec_ref_pic_marking() of an IDR: */
	put_u(&w, 0, 1);        /* no_output_of_prior_pics_flag */
	put_u(&w, 0, 1);        /* long_term_reference_flag */
	put_se(&w, 0);          /* slice_qp_delta */
	put_ue(&w, 1);          /* disable_deblocking_filter_idc: off */
	for (uint32_t mb = 0; mb < mbw * mbh; mb++) {
		uint32_t mx = mb % mbw, my = mb / mbw;
		put_ue(&w, 25); /* mb_type I_PCM (Table 7-11) */
		align_zero(&w); /* pcm_alignment_zero_bit */
		for (uint32_t y = 0; y < 16; y++)
			for (uint32_t x = 0; x < 16; x++)
				put_u(&w, vkqs_h264_luma(mx * 16 + x, my * 16 + y), 8);
		for (uint32_t y = 0; y < 8; y++)
			for (uint32_t x = 0; x < 8; x++)
				put_u(&w, vkqs_h264_cb(mx * 8 + x, my * 8 + y), 8);
		for (uint32_t y = 0; y < 8; y++)
			for (uint32_t x = 0; x < 8; x++)
				put_u(&w, vkqs_h264_cr(mx * 8 + x, my * 8 + y), 8);
	}
	put_bit(&w, 1); /* rbsp_stop_one_bit */
	align_zero(&w);

	/* the NAL unit: start code, header, the RBSP with emulation
	 * prevention (7.4.1: 0x000003 before any 0x0000 followed by 00..03) */
	p->bitstream = malloc(4 + w.n * 3 / 2 + 16);
	if (!p->bitstream)
		abort();
	size_t o = 0;
	p->bitstream[o++] = 0;
	p->bitstream[o++] = 0;
	p->bitstream[o++] = 1;
	p->bitstream[o++] = 0x65; /* nal_ref_idc 3, nal_unit_type 5 (IDR slice) */
	uint32_t zeros = 0;
	for (size_t i = 0; i < w.n; i++) {
		if (zeros >= 2 && w.b[i] <= 3) {
			p->bitstream[o++] = 3;
			zeros = 0;
		}
		p->bitstream[o++] = w.b[i];
		zeros = w.b[i] ? 0 : zeros + 1;
	}
	p->size = o;
	free(w.b);
}

void vkqs_h264_free(struct vkqs_h264_picture *p)
{
	free(p->bitstream);
	p->bitstream = NULL;
}

/* Reading ------------------------------------------------------------------*/

struct reader {
	const uint8_t *rbsp;
	size_t size, bit;
	bool over;
};

static uint32_t get_bit(struct reader *r)
{
	if (r->bit >= r->size * 8) {
		r->over = true;
		return 0;
	}
	uint32_t v = (r->rbsp[r->bit / 8] >> (7 - r->bit % 8)) & 1;
	r->bit++;
	return v;
}

static uint32_t get_u(struct reader *r, uint32_t n)
{
	uint32_t v = 0;
	while (n--)
		v = (v << 1) | get_bit(r);
	return v;
}

static uint32_t get_ue(struct reader *r)
{
	uint32_t zeros = 0;
	while (!get_bit(r) && !r->over && zeros < 32)
		zeros++;
	if (zeros >= 32) {
		r->over = true;
		return 0;
	}
	return ((1u << zeros) - 1) + get_u(r, zeros);
}

bool vkqs_h264_first_slice(const uint8_t *data, size_t size, uint32_t log2_max_frame_num,
			   struct vkqs_h264_slice_header *h, char *why, size_t why_size)
{
	memset(h, 0, sizeof(*h));
	/* Annex B: zero_byte(s), then start_code_prefix_one_3bytes */
	size_t i = 0;
	while (i < size && data[i] == 0)
		i++;
	if (i < 2 || i >= size || data[i] != 1) {
		snprintf(why, why_size, "the data does not start with a start code (00 00 01)");
		return false;
	}
	for (;;) {
		size_t nal = i + 1; /* the NAL unit header */
		size_t end = nal;   /* the next start code, or the end */
		while (end + 2 < size && !(data[end] == 0 && data[end + 1] == 0 && data[end + 2] == 1))
			end++;
		if (end + 2 >= size)
			end = size;
		if (nal >= end) {
			snprintf(why, why_size, "an empty NAL unit at byte %zu", nal);
			return false;
		}
		unsigned type = data[nal] & 0x1f;
		if (type >= 1 && type <= 5) {
			/* the RBSP: emulation prevention bytes removed (7.4.1) */
			uint8_t *rbsp = malloc(end - nal);
			if (!rbsp)
				abort();
			size_t n = 0;
			unsigned zeros = 0;
			for (size_t k = nal + 1; k < end; k++) {
				if (zeros >= 2 && data[k] == 3) {
					zeros = 0;
					continue;
				}
				rbsp[n++] = data[k];
				zeros = data[k] ? 0 : zeros + 1;
			}
			struct reader r = {rbsp, n, 0, false};
			h->nal_ref_idc = (data[nal] >> 5) & 3;
			h->nal_unit_type = type;
			h->first_mb_in_slice = get_ue(&r);
			h->slice_type = get_ue(&r);
			h->pic_parameter_set_id = get_ue(&r);
			/* no separate colour planes: the profiles used have 4:2:0 or
			 * monochrome */
			h->frame_num = get_u(&r, log2_max_frame_num);
			if (type == 5)
				h->idr_pic_id = get_ue(&r);
			free(rbsp);
			if (r.over) {
				snprintf(why, why_size, "the slice header runs past its NAL unit");
				return false;
			}
			return true;
		}
		if (end == size) {
			snprintf(why, why_size, "no slice NAL unit (types 1..5) in the data");
			return false;
		}
		i = end + 2;
	}
}
