#include "ccms.h"

CMS_ContentInfo *ccms_read(const unsigned char *bytes, long count) { return d2i_CMS_ContentInfo(NULL, &bytes, count); }
int ccms_signer_info_count(CMS_ContentInfo *cms) { STACK_OF(CMS_SignerInfo) *infos = CMS_get0_SignerInfos(cms); return infos ? sk_CMS_SignerInfo_num(infos) : 0; }
CMS_SignerInfo *ccms_signer_info_at(CMS_ContentInfo *cms, int index) { STACK_OF(CMS_SignerInfo) *infos = CMS_get0_SignerInfos(cms); return infos ? sk_CMS_SignerInfo_value(infos, index) : NULL; }
STACK_OF(X509) *ccms_certificates(CMS_ContentInfo *cms) { return CMS_get1_certs(cms); }
int ccms_certificates_count(STACK_OF(X509) *certificates) { return sk_X509_num(certificates); }
X509 *ccms_certificate_at(STACK_OF(X509) *certificates, int index) { return sk_X509_value(certificates, index); }
void ccms_certificates_free(STACK_OF(X509) *certificates) { sk_X509_pop_free(certificates, X509_free); }
int ccms_print_name(BIO *memory, const X509_NAME *name) { return X509_NAME_print_ex(memory, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB); }
long ccms_memory_contents(BIO *memory, char **data) { return BIO_get_mem_data(memory, data); }
X509 *ccms_read_certificate(const unsigned char *bytes, long count) { return d2i_X509(NULL, &bytes, count); }
void ccms_sha256(const unsigned char *bytes, size_t count, unsigned char *out) { SHA256(bytes, count, out); }
