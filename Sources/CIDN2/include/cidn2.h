#ifndef CIDN2_H
#define CIDN2_H
// A tiny shim over libidn2: typed forwards with the one flag set the project uses, so Swift never
// spells libidn2's enum flags or frees its memory with the wrong allocator. Nothing else belongs here.
#include <idn2.h>

/// IDNA2008 lookup with UTS #46 non-transitional mapping (idn2_to_ascii_8z); 0 (IDN2_OK) or an idn2 error code.
/// STD3 ASCII rules are not asked for: libidn2 2.3 then drops "_" and spaces silently, the caller checks them.
int cidn2_to_ascii(const char *utf8, char **ascii);
/// The Unicode form of an ASCII name, xn-- labels decoded (idn2_to_unicode_8z8z); 0 or an idn2 error code.
int cidn2_to_unicode(const char *ascii, char **utf8);
/// libidn2's English description of an error code.
const char *cidn2_strerror(int code);
/// Frees what cidn2_to_ascii / cidn2_to_unicode returned.
void cidn2_free(void *pointer);

#endif
