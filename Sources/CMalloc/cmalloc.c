#include "cmalloc.h"
#include <malloc.h>

int cmalloc_trim(void) { return malloc_trim(0); }
