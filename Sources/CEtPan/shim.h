// A hand-picked list: libetpan.h pulls in headers that include private,
// uninstalled headers and fail to import (see README "Dependencies").
#include <libetpan/libetpan-config.h>
#include <libetpan/mailstream.h>
#include <libetpan/mailstream_low.h>
#include <libetpan/mailstream_ssl.h>
#include <libetpan/mailstream_socket.h>
#include <libetpan/mailimap.h>
#include <libetpan/mailimap_ssl.h>
#include <libetpan/mailimap_socket.h>
#include <libetpan/mailimap_extension.h>
#include <libetpan/idle.h>
#include <libetpan/namespace.h>
#include <libetpan/uidplus.h>
#include <libetpan/condstore.h>
#include <libetpan/xgmlabels.h>
#include <libetpan/mailimf.h>
#include <libetpan/mailimf_types_helper.h>
#include <libetpan/mailmime.h>
#include <libetpan/mailmime_decode.h>
#include <libetpan/mailmime_content.h>
#include <libetpan/mailmime_disposition.h>
#include <libetpan/charconv.h>
#include <libetpan/maildir.h>
#include <libetpan/carray.h>
#include <libetpan/clist.h>
#include <libetpan/mailimap_oauth2.h>

// Sets libetpan's conversion hook (a global function pointer): a setter here,
// because Swift 6 refuses to assign a C global variable directly.
typedef int (*triage_charconv_fn)(const char *tocode, const char *fromcode, const char *str, size_t length,
                                  char *result, size_t *result_len);
static inline void triage_set_extended_charconv(triage_charconv_fn fn) { extended_charconv = fn; }
