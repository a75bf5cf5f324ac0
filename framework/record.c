#include "record.h"

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

void vkqs_classify(struct vkqs_result *r, const struct vkqs_expectations *e)
{
	const struct vkqs_expected_fail *f = e ? vkqs_expected_fail(e, r->ci->name) : NULL;
	const enum vkqs_status *b = f ? &f->status : NULL;
	r->has_expected = b != NULL;
	r->pin = NULL;
	if (b)
		r->expected = *b;
	if (!r->done)
		r->outcome = VKQS_OUTCOME_NOT_RUN;
	else if (b && *b == r->status && f->pin &&
		 regexec(&f->pin_re, r->message, 0, NULL, 0) != 0) {
		r->outcome = VKQS_OUTCOME_NOT_PINNED;
		r->pin = f->pin;
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
