#include <napi.h>
// decoder
