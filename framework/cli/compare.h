/* vkqs compare (compare.c): the suite on every device, one page. */
#ifndef VKQS_COMPARE_H
#define VKQS_COMPARE_H

struct opts;
int vkqs_compare_main(const struct opts *o);

#endif
