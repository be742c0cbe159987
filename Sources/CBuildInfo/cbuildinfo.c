#include "cbuildinfo.h"

#ifndef AASA_BUILD_COMMIT
#define AASA_BUILD_COMMIT ""
#endif

const char *cbuildinfo_commit(void) { return AASA_BUILD_COMMIT; }
