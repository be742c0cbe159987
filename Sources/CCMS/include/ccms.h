#ifndef CCMS_H
#define CCMS_H
// A tiny shim over OpenSSL's CMS functions: typed forwards for what OpenSSL spells as macros (stacks,
// memory BIOs) or through a pointer it advances. Swift does the rest. Nothing else belongs here.
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/sha.h>

/// BER or DER bytes as a CMS ContentInfo (d2i_CMS_ContentInfo), or NULL; free with CMS_ContentInfo_free.
CMS_ContentInfo *ccms_read(const unsigned char *bytes, long count);
/// Number of SignerInfos in a SignedData (0 for other content types).
int ccms_signer_info_count(CMS_ContentInfo *cms);
/// SignerInfo `index`, or NULL.
CMS_SignerInfo *ccms_signer_info_at(CMS_ContentInfo *cms, int index);
/// The certificates carried in the structure (CMS_get1_certs), or NULL; free with ccms_certificates_free.
STACK_OF(X509) *ccms_certificates(CMS_ContentInfo *cms);
/// Number of certificates in a stack.
int ccms_certificates_count(STACK_OF(X509) *certificates);
/// Certificate `index` of a stack (not owned), or NULL.
X509 *ccms_certificate_at(STACK_OF(X509) *certificates, int index);
/// Frees a stack from ccms_certificates and its certificates.
void ccms_certificates_free(STACK_OF(X509) *certificates);
/// Prints a name in RFC 2253 form with UTF-8 kept as UTF-8 (X509_NAME_print_ex); -1 on failure.
int ccms_print_name(BIO *memory, const X509_NAME *name);
/// The bytes written so far to a memory BIO (BIO_get_mem_data): their count, *data pointing at them.
long ccms_memory_contents(BIO *memory, char **data);
/// A DER certificate as an X509 (d2i_X509), or NULL; free with X509_free.
X509 *ccms_read_certificate(const unsigned char *bytes, long count);
/// The SHA-256 of count bytes into out (32 bytes).
void ccms_sha256(const unsigned char *bytes, size_t count, unsigned char *out);

#endif
