/* The inline part of picollo.h as an install lays it out (`#include <picollo/picollo_inline.h>`),
 * for a build against the checkout with -I include. */
#include "../picollo_inline.h"
