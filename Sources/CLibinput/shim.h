#pragma once
#include <libinput.h>
