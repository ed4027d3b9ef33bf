// The pass infrastructure in one include.
#pragma once

#include "relaypass/text/print_ir.h"
#include "relaypass/transform/apply_pass_to_function.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/option_value.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/pass_config.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/pass_info.h"
#include "relaypass/transform/pass_instrument.h"
#include "relaypass/transform/registry.h"
#include "relaypass/transform/sequential.h"
#include "relaypass/transform/timing.h"
