/* gpug stub: assert is a device assertion. */
#pragma once
#undef assert
#define assert(e) __assert(e)
