#ifndef CMALLOC_H
#define CMALLOC_H
// glibc's malloc_trim, which Swift's Glibc module does not import (<malloc.h> is not in it).
// Nothing else belongs here.

/// malloc_trim(0): gives the free pages of every arena back to the system. Returns 1 when some were.
int cmalloc_trim(void);

#endif
