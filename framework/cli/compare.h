/* vkqs compare (compare.c): the suite on every device, one page. */
#ifndef VKQS_COMPARE_H
#define VKQS_COMPARE_H

int vkqs_compare_main(int argc, char **argv, const char *usage);

#endif
