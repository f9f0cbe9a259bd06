#include <malloc.h>

#include "CShims.h"

void triage_single_malloc_arena(void) {
    // Failure only means the default (one arena per thread, up to 8 per core): no harm.
    (void)mallopt(M_ARENA_MAX, 1);
}
