#include "relaypass/transform/sequential.h"

#include "relaypass/support/error.h"
#include "relaypass/transform/registry.h"

namespace relaypass::transform {

namespace {

class SequentialNode final : public PassNode {
 public:
  SequentialNode(PassInfo info, std::vector<Pass> passes)
      : PassNode(std::move(info)), passes_(std::move(passes)) {}
  PassKind kind() const override { return PassKind::kSequential; }
  const std::vector<Pass>& passes() const { return passes_; }

  // The pipeline loop: gate each member, run what it requires, run it.
  ir::IRModule Run(const ir::IRModule& mod, const PassContext& ctx) const override {
    ir::IRModule current = mod;
    for (const Pass& pass : passes_) {
      const PassInfo& pass_info = pass.info();
      const PassStatus gate = ctx.Gate(pass_info);
      if (gate != PassStatus::kOk) {
        for (const auto& instrument : PassInstruments(ctx.instruments())) {
          instrument->run_after_pass_status(current, pass_info, gate);
        }
        continue;
      }
      for (const std::string& required : pass_info.required) {
        current = CreateRequired(required, pass_info.name)(current, ctx);
      }
      current = pass(current, ctx);
    }
    return current;
  }

 private:
  static Pass CreateRequired(const std::string& required, const std::string& by) {
    const PassRegistry& registry = PassRegistry::Global();
    if (!registry.Find(required)) {
      throw PassError("pass \"" + by + "\" requires \"" + required +
                      "\", which is not a registered pass");
    }
    return registry.Create(required);
  }

  std::vector<Pass> passes_;
};

}  // namespace

Pass Sequential(std::vector<Pass> passes, std::string name, int opt_level,
                std::vector<std::string> required) {
  for (const Pass& pass : passes) {
    if (!pass.defined()) throw InternalError("Sequential \"" + name + "\" has an undefined pass");
  }
  PassInfo info{opt_level, std::move(name), std::move(required)};
  return Pass(std::make_shared<SequentialNode>(std::move(info), std::move(passes)));
}

const std::vector<Pass>* SequentialPasses(const Pass& pass) {
  if (!pass.defined() || pass.kind() != PassKind::kSequential) return nullptr;
  return &static_cast<const SequentialNode*>(pass.get())->passes();
}

}  // namespace relaypass::transform
