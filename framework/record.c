#include "record.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	bool bad;
} outcomes[] = {
#define X(e, n, bad) {n, bad},
	VKQS_OUTCOME_LIST(X)
#undef X
};

const char *vkqs_outcome_name(enum vkqs_outcome o)
{
	return outcomes[o].name;
}

bool vkqs_outcome_unexpected(enum vkqs_outcome o)
{
	return outcomes[o].bad;
}

unsigned vkqs_result_items(const struct vkqs_result *r)
{
	return r->items.n ? r->items.n : r->message[0] != '\0';
}

const char *vkqs_result_item(const struct vkqs_result *r, unsigned i, size_t *len,
			     bool *failure)
{
	if (!r->items.n) {
		/* the runner's message (Crash, Timeout, not run), or a result
		 * of an older file: one item at the case's status */
		*len = strlen(r->message);
		*failure = r->status != VKQS_PASS;
		return r->message;
	}
	const struct vkqs_msg_item *it = &r->items.it[i];
	*len = it->len;
	*failure = r->status != VKQS_PASS && it->status == r->status;
	return r->message + it->start;
}

bool vkqs_result_items_from(struct vkqs_result *r, const char *const *texts, const bool *failure,
			    unsigned n)
{
	r->items.n = 0;
	if (n > VKQS_MAX_ITEMS)
		return false;
	for (unsigned i = 0; i < n; i++) {
		size_t len = strlen(texts[i]);
		/* its first place in the message no other item took */
		const char *at = r->message;
		bool taken;
		do {
			at = strstr(at, texts[i]);
			taken = false;
			for (unsigned k = 0; at && k < r->items.n; k++)
				taken = taken || r->items.it[k].start == (unsigned short)(at - r->message);
			if (taken)
				at++;
		} while (at && taken);
		if (!at)
			return false;
		struct vkqs_msg_item it = {(unsigned short)(at - r->message), (unsigned short)len,
					   (unsigned char)(failure[i] ? r->status : VKQS_PASS)};
		/* in message order */
		unsigned k = r->items.n++;
		while (k && r->items.it[k - 1].start > it.start) {
			r->items.it[k] = r->items.it[k - 1];
			k--;
		}
		r->items.it[k] = it;
	}
	return true;
}

/* A failure without its "file.c:line: " prefix (lines move; a pin names
 * the check's words). */
const char *vkqs_item_without_place(const char *t, size_t *len)
{
	size_t i = 0;
	while (i < *len && (isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '-' ||
			    t[i] == '.' || t[i] == '+'))
		i++;
	if (i < 3 || strncmp(t + i - 2, ".c", 2) != 0 || i >= *len || t[i] != ':')
		return t;
	size_t j = i + 1;
	while (j < *len && isdigit((unsigned char)t[j]))
		j++;
	if (j == i + 1 || j + 1 >= *len || t[j] != ':' || t[j + 1] != ' ')
		return t;
	*len -= j + 2;
	return t + j + 2;
}

void vkqs_classify(struct vkqs_result *r, const struct vkqs_expectations *e)
{
	const struct vkqs_expected_fail *f = e ? vkqs_expected_fail(e, r->ci->name) : NULL;
	const enum vkqs_status *b = f ? &f->status : NULL;
	r->has_expected = b != NULL;
	r->pin = NULL;
	r->unpinned = -1;
	if (b)
		r->expected = *b;
	/* a pinned entry: every failure must match one of its pins whole */
	if (r->done && b && *b == r->status && f->pins.n) {
		for (unsigned i = 0; i < vkqs_result_items(r) && r->unpinned < 0; i++) {
			size_t len;
			bool failure;
			const char *t = vkqs_result_item(r, i, &len, &failure);
			if (!failure)
				continue;
			t = vkqs_item_without_place(t, &len);
			if (!vkqs_pins_match(&f->pins, t, len))
				r->unpinned = (int)i;
		}
	}
	if (!r->done)
		r->outcome = VKQS_OUTCOME_NOT_RUN;
	else if (r->unpinned >= 0) {
		r->outcome = VKQS_OUTCOME_NOT_PINNED;
		r->pin = f->pins.src[0];
	} else if (b && *b == r->status)
		r->outcome = VKQS_OUTCOME_EXPECTED;
	else if (b && vkqs_status_success(r->status))
		r->outcome = VKQS_OUTCOME_UNEXPECTED_PASS;
	else if (!b && vkqs_status_success(r->status))
		r->outcome = VKQS_OUTCOME_OK;
	else
		r->outcome = VKQS_OUTCOME_UNEXPECTED;
	if ((r->outcome == VKQS_OUTCOME_UNEXPECTED ||
	     r->outcome == VKQS_OUTCOME_UNEXPECTED_PASS ||
	     r->outcome == VKQS_OUTCOME_NOT_PINNED) &&
	    e && vkqs_regex_list_match(&e->flakes, r->ci->name))
		r->outcome = VKQS_OUTCOME_KNOWN_FLAKE;
}

void vkqs_run_free_results(struct vkqs_run *run)
{
	for (size_t i = 0; i < run->count; i++) {
		free(run->results[i].log);
		free(run->results[i].preds);
		free(run->results[i].order_note);
	}
	free(run->results);
	run->results = NULL;
	run->count = 0;
}

void vkqs_summarize(const struct vkqs_run *run, struct vkqs_summary *s)
{
	*s = (struct vkqs_summary){.total = run->count};
	for (size_t i = 0; i < run->count; i++) {
		const struct vkqs_result *r = &run->results[i];
		/* a case not done is not run, whatever its outcome field says */
		enum vkqs_outcome o = r->done ? r->outcome : VKQS_OUTCOME_NOT_RUN;
		switch (o) {
		case VKQS_OUTCOME_OK:
			if (r->status == VKQS_PASS)
				s->passed++;
			else if (r->status == VKQS_NOT_SUPPORTED)
				s->not_supported++;
			else
				s->warnings++;
			break;
		case VKQS_OUTCOME_EXPECTED: s->expected_fails++; break;
		case VKQS_OUTCOME_FLAKE:
		case VKQS_OUTCOME_KNOWN_FLAKE: s->flakes++; break;
		case VKQS_OUTCOME_NOT_RUN: s->not_run++; break;
		case VKQS_OUTCOME_UNEXPECTED_PASS:
			s->unexpected_passes++;
			s->failed++;
			break;
		case VKQS_OUTCOME_UNEXPECTED:
		case VKQS_OUTCOME_NOT_PINNED:
		case VKQS_OUTCOME_ORDER_DEPENDENT: s->failed++; break;
		}
	}
	s->unexpected = s->failed + s->not_run;
}
