/* The suite header as an install lays it out (`#include <picollo/picollo_suite.h>`), for a
 * build against the checkout with -I include. */
#include "../picollo_suite.h"
