// A saved TorchScript model (torch.jit.save, a .pt or .pth INPUT) read through the Python
// frontend: relay-opt runs `python3 -m relaypass.relay.frontend.pytorch.file_export` (the
// interpreter named by $RELAYPASS_PYTHON, else /usr/bin/python3; the package found next to the
// relay-opt binary in a build tree, else on the interpreter's own path) and reads back the module
// text and the weights it writes (docs/pytorch.md).
#pragma once

#include "input.h"
#include "options.h"

namespace relay_opt {

/// True if INPUT is a TorchScript file: --input-format=torch, or a .pt/.pth name with auto.
bool IsTorchInput(const Options& options);

/// The model imported with from_pytorch: main's parameters, and its weights by name (bound as
/// constants with --bind-params). --input-shape gives each graph input, in order. Errors (no
/// Python or torch, a file torch cannot load, an unsupported op) are relaypass::Error carrying
/// the frontend's message.
LoadedModule LoadTorch(const Options& options);

}  // namespace relay_opt
