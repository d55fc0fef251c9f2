/* date.c: placeholder until the date parser lands. */
#include "cache.h"
