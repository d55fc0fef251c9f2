/* diff.c: placeholder until the diff engine lands. */
#include "cache.h"
