// Debian's libxml2 is built with ICU, so its encoding.h includes ICU's
// <unicode/ucnv.h>. Swift's Foundation carries its own ICU headers
// (_FoundationICU) with a different UErrorCode: a target that imports both
// Foundation and this module fails to build ("'UErrorCode' has different
// definitions in different modules"), depending on build order. triage only
// uses xmlDoc/xmlNode through pointers and never the ICU converter fields of
// xmlCharEncodingHandler, so the ICU part of the headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
