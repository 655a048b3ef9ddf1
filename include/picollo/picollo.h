/* The header as an install lays it out (`#include <picollo/picollo.h>`, with pkg-config's
 * -I${includedir}), for a build against the checkout with -I include: the same declarations. */
#include "../picollo.h"
