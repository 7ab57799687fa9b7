#include <napi.h>
