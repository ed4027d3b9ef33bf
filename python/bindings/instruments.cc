// Pass instruments (tvm.instrument): a Python object with any of the hooks enter_pass_ctx,
// exit_pass_ctx, should_run, run_before_pass, run_after_pass becomes a C++ PassInstrument that
// calls them (with the GIL); PassTimingInstrument is the C++ one.
#include <memory>
#include <string>

#include "common.h"
#include "relaypass/tools/report_instrument.h"
#include "relaypass/transform.h"

namespace relaypass::python {
namespace {

using transform::PassInfo;

// Calls the hooks a Python instrument defines; a missing hook is skipped without a round trip.
class PyInstrument final : public transform::PassInstrument {
 public:
  explicit PyInstrument(py::object obj) : obj_(obj) {
    auto hook = [&](const char* name) -> py::object {
      return py::hasattr(obj, name) ? obj.attr(name) : py::object();
    };
    name_ = py::str(py::type::handle_of(obj).attr("__name__"));
    enter_ = PyRef(hook("enter_pass_ctx"));
    exit_ = PyRef(hook("exit_pass_ctx"));
    should_run_ = PyRef(hook("should_run"));
    before_ = PyRef(hook("run_before_pass"));
    after_ = PyRef(hook("run_after_pass"));
  }

  const py::object& object() const { return obj_.get(); }
  std::string name() const override { return name_; }

  void enter_pass_ctx() override { Call(enter_); }
  void exit_pass_ctx() override { Call(exit_); }
  bool should_run(const ir::IRModule& mod, const PassInfo& info) override {
    if (!Defined(should_run_)) return true;
    py::gil_scoped_acquire gil;
    return CallPython([&] { return py::bool_(should_run_.get()(mod, info)).cast<bool>(); });
  }
  void run_before_pass(const ir::IRModule& mod, const PassInfo& info) override {
    Call(before_, mod, info);
  }
  void run_after_pass(const ir::IRModule& mod, const PassInfo& info) override {
    Call(after_, mod, info);
  }

 private:
  static bool Defined(const PyRef& hook) { return hook && !hook.get().is_none() && hook.get(); }
  template <typename... Args>
  static void Call(const PyRef& hook, const Args&... args) {
    if (!Defined(hook)) return;
    py::gil_scoped_acquire gil;
    CallPython([&] { hook.get()(args...); });
  }

  PyRef obj_;
  std::string name_;
  PyRef enter_, exit_, should_run_, before_, after_;
};

}  // namespace

transform::PassInstruments InstrumentsFromPy(const py::object& instruments) {
  transform::PassInstruments out;
  if (instruments.is_none()) return out;
  for (py::handle item : instruments) {
    if (py::isinstance<transform::PassInstrument>(item)) {
      out.push_back(item.cast<std::shared_ptr<transform::PassInstrument>>());
    } else if (py::hasattr(item, "_native_instrument")) {
      out.push_back(
          item.attr("_native_instrument").cast<std::shared_ptr<transform::PassInstrument>>());
    } else {
      bool has_hook = false;
      for (const char* hook :
           {"enter_pass_ctx", "exit_pass_ctx", "should_run", "run_before_pass", "run_after_pass"}) {
        has_hook = has_hook || py::hasattr(item, hook);
      }
      if (!has_hook) {
        throw py::type_error(
            "a pass instrument needs one of the hooks enter_pass_ctx, "
            "exit_pass_ctx, should_run, run_before_pass, run_after_pass; got " +
            std::string(py::repr(item)));
      }
      out.push_back(std::make_shared<PyInstrument>(py::reinterpret_borrow<py::object>(item)));
    }
  }
  return out;
}

py::list InstrumentsToPy(const transform::PassInstruments& instruments) {
  py::list out;
  for (const auto& inst : instruments) {
    if (auto* py_inst = dynamic_cast<const PyInstrument*>(inst.get())) {
      out.append(py_inst->object());
    } else {
      out.append(py::cast(inst));
    }
  }
  return out;
}

void BindInstruments(py::module_& m) {
  py::class_<transform::PassInstrument, std::shared_ptr<transform::PassInstrument>>(
      m, "NativePassInstrument")
      .def_property_readonly("name", &transform::PassInstrument::name);
  py::class_<transform::PassTimingInstrument, transform::PassInstrument,
             std::shared_ptr<transform::PassTimingInstrument>>(m, "NativePassTimingInstrument")
      .def(py::init([] { return std::make_shared<transform::PassTimingInstrument>(); }))
      .def("render", &transform::PassTimingInstrument::render);
  py::class_<tools::ReportInstrument, transform::PassInstrument,
             std::shared_ptr<tools::ReportInstrument>>(m, "NativeReportInstrument")
      .def(py::init([](const std::string& input, const std::string& command_line) {
             tools::ReportOptions options;
             options.input = input;
             options.command_line = command_line;
             options.containers = {"sequential"};
             return std::make_shared<tools::ReportInstrument>(std::move(options));
           }),
           py::arg("input") = "", py::arg("command_line") = "")
      .def("render", &tools::ReportInstrument::RenderHtml, py::call_guard<py::gil_scoped_release>())
      .def("write", &tools::ReportInstrument::WriteFile, py::arg("path"),
           py::call_guard<py::gil_scoped_release>());
}

}  // namespace relaypass::python
