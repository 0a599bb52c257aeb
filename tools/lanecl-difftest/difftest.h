/* lanecl-difftest: shared constants of the generator and the driver. */
#ifndef LANECL_DIFFTEST_H
#define LANECL_DIFFTEST_H
#include <stdint.h>

#define DIFFTEST_NIN 16384      /* uints in the input buffer (a power of 2) */
#define DIFFTEST_NOUT 12        /* output slots per work-item */
#define DIFFTEST_NCNT 16        /* global atomic counters */
#define DIFFTEST_MAX_GROUP 128  /* largest work-group of a generated config */

/* The source of the program of this seed (malloc'd).  size: statements. */
char *difftest_generate(uint64_t seed, int size);

#endif
