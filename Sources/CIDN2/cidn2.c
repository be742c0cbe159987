#include "cidn2.h"

int cidn2_to_ascii(const char *utf8, char **ascii) { return idn2_to_ascii_8z(utf8, ascii, IDN2_NONTRANSITIONAL); }
int cidn2_to_unicode(const char *ascii, char **utf8) { return idn2_to_unicode_8z8z(ascii, utf8, 0); }
const char *cidn2_strerror(int code) { return idn2_strerror(code); }
void cidn2_free(void *pointer) { idn2_free(pointer); }
