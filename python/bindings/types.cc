// Types (relay.TensorType, TupleType, FuncType, RefType, IncompleteType) and NDArray with NumPy
// views.
#include <pybind11/numpy.h>

#include <cstring>
#include <optional>
#include <string>

#include "common.h"
#include "py_convert.h"
#include "relaypass/ir/dim_expr.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"

namespace relaypass::python {

// module.cc: TVM's structural equality of types.
bool TypesStructurallyEqual(const ir::Type& a, const ir::Type& b, bool map_free_vars);

namespace {

ir::DataType ParseDType(const std::string& text) {
  auto dtype = ir::DataType::Parse(text);
  if (!dtype) throw relaypass::TypeError("unknown dtype '" + text + "'");
  return *dtype;
}

// NumPy's name for a dtype; bfloat16 has none and is shown as its bits (uint16).
std::string NumpyName(ir::DataType dtype) {
  if (dtype.lanes() != 1) {
    throw relaypass::TypeError("no NumPy dtype for vector type " + dtype.ToString());
  }
  if (dtype.code() == ir::DataType::Code::kBFloat) return "uint16";
  return dtype.ToString();
}

py::array ToNumpy(const ir::NDArray& array) {
  // A view of the shared buffer: the capsule keeps a copy of the handle (and so the storage)
  // alive. Read-only, because a Constant may hold the same buffer and the IR never changes.
  auto* keep = new ir::NDArray(array);
  py::capsule owner(keep, [](void* p) { delete static_cast<ir::NDArray*>(p); });
  std::vector<py::ssize_t> shape(array.shape().begin(), array.shape().end());
  py::array out(py::dtype(NumpyName(array.dtype())), shape, {}, array.raw_data(), owner);
  py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

ir::NDArray FromNumpy(const py::array& input, const std::string& dtype_text) {
  py::array src = input;
  std::string name = py::str(src.dtype().attr("name"));
  ir::DataType dtype = ParseDType(dtype_text.empty() ? name : dtype_text);
  if (!dtype_text.empty() && dtype_text != name) {
    src = src.attr("astype")(NumpyName(dtype));
  }
  // Bytes in the machine's order, as TVM converts: a big-endian array is swapped, not copied raw.
  if (!src.dtype().attr("isnative").cast<bool>()) {
    src = src.attr("astype")(src.dtype().attr("newbyteorder")("="));
  }
  src = py::array::ensure(src, py::array::c_style);
  if (!src) throw py::error_already_set();
  ir::Shape shape(src.shape(), src.shape() + src.ndim());
  // A NumPy array (C-ordered above) holds its elements, so their count cannot overflow.
  size_t elements = 1;
  for (const int64_t d : shape) elements *= static_cast<size_t>(d);
  if (static_cast<size_t>(src.nbytes()) != elements * dtype.bytes()) {
    throw relaypass::TypeError("cannot store NumPy dtype " + name + " as " + dtype.ToString());
  }
  return ir::NDArray::FromBytes(shape, dtype, src.data());
}

// A shape as TVM's Python gives it: dimensions are IntImm (ints with `.value`), a symbolic one
// the tir.Var it was made from.
py::tuple ShapeTuple(const std::vector<int64_t>& shape) {
  py::object int_imm = py::module_::import("relaypass._values").attr("IntImm");
  py::tuple out(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    if (ir::IsSymbolicDim(shape[i])) {
      out[i] = py::module_::import("relaypass._symbolic").attr("var_for_dim")(shape[i]);
    } else {
      out[i] = int_imm(shape[i]);
    }
  }
  return out;
}

std::vector<ir::Dim> ShapeFrom(const py::iterable& shape) {
  std::vector<ir::Dim> out;
  for (py::handle dim : shape) {
    if (py::hasattr(dim, "_relaypass_symbolic_dim")) {  // a tir.Var (relaypass/_symbolic.py)
      out.push_back(dim.attr("_relaypass_symbolic_dim").cast<int64_t>());
    } else if (py::hasattr(dim, "value") && !py::isinstance<py::int_>(dim)) {
      out.push_back(ToInt64(dim.attr("value"), "shape dimension"));
    } else {
      out.push_back(ToInt64(py::int_(py::reinterpret_borrow<py::object>(dim)), "shape dimension"));
    }
  }
  return out;
}

}  // namespace

void BindTypes(py::module_& m) {
  m.def("new_symbolic_dim", &ir::NewSymbolicDim, py::arg("name"));
  m.def("symbolic_dim_name", &ir::SymbolicDimName, py::arg("dim"));
  // Dimension expressions (ir/dim_expr.h): op is 0 add, 1 sub, 2 mul, 3 floordiv, 4 floormod,
  // 5 min, 6 max;
  // each operand is (is_const, value).
  m.def(
      "make_dim_expr",
      [](int op, bool a_const, int64_t a, bool b_const, int64_t b) {
        if (op < 0 || op > 6) throw relaypass::TypeError("unknown dimension operation");
        return ir::MakeDimExpr(static_cast<ir::DimOp>(op), ir::DimOperand{a_const, a},
                               ir::DimOperand{b_const, b});
      },
      py::arg("op"), py::arg("a_is_const"), py::arg("a"), py::arg("b_is_const"), py::arg("b"));
  m.def(
      "dim_expr_parts",
      [](int64_t dim) -> py::object {
        std::optional<ir::DimExprParts> parts = ir::DimExprOf(dim);
        if (!parts) return py::none();
        return py::make_tuple(static_cast<int>(parts->op), parts->a.is_const, parts->a.value,
                              parts->b.is_const, parts->b.value);
      },
      py::arg("dim"));
  py::class_<ir::TypeNode, ir::Type>(m, "Type")
      .def("__str__", [](const ir::Type& t) { return ir::TypeToString(t); })
      .def("__repr__", [](const ir::Type& t) { return ir::TypeToString(t); })
      // TVM's Type.__eq__ is structural equality (a function type's parameters are bound).
      .def("__eq__",
           [](const ir::Type& a, const py::object& b) {
             return py::isinstance<ir::TypeNode>(b) &&
                    TypesStructurallyEqual(a, b.cast<ir::Type>(), false);
           })
      .def("__hash__", [](const ir::Type& t) { return ir::TypeHash(t); })
      .def("same_as", [](const ir::Type& a, const py::object& b) {
        return py::isinstance<ir::TypeNode>(b) && a.same_as(b.cast<ir::Type>());
      });

  py::class_<ir::TensorTypeNode, ir::TypeNode, ir::Ref<ir::TensorTypeNode>>(m, "TensorType")
      .def(py::init([](const py::iterable& shape, const std::string& dtype) {
             return ir::TensorType(ShapeFrom(shape), ParseDType(dtype))
                 .downcast<ir::TensorTypeNode>();
           }),
           py::arg("shape"), py::arg("dtype") = "float32")
      .def_property_readonly("shape",
                             [](const ir::TensorTypeNode& t) { return ShapeTuple(t.shape); })
      .def_property_readonly("concrete_shape",
                             [](const ir::TensorTypeNode& t) { return ShapeTuple(t.shape); })
      .def_property_readonly("dtype",
                             [](const ir::TensorTypeNode& t) { return t.dtype.ToString(); });

  py::class_<ir::TupleTypeNode, ir::TypeNode, ir::Ref<ir::TupleTypeNode>>(m, "TupleType")
      .def(py::init([](const std::vector<ir::Type>& fields) {
             return ir::TupleType(fields).downcast<ir::TupleTypeNode>();
           }),
           py::arg("fields"))
      .def_property_readonly("fields", [](const ir::TupleTypeNode& t) { return t.fields; });

  py::class_<ir::FuncTypeNode, ir::TypeNode, ir::Ref<ir::FuncTypeNode>>(m, "FuncType")
      .def(py::init([](const std::vector<ir::Type>& args, const ir::Type& ret,
                       const py::object& type_params, const py::object&) {
             std::vector<ir::Type> tps;
             if (!type_params.is_none()) tps = type_params.cast<std::vector<ir::Type>>();
             return ir::FuncType(args, ret, std::move(tps)).downcast<ir::FuncTypeNode>();
           }),
           py::arg("arg_types"), py::arg("ret_type"), py::arg("type_params") = py::none(),
           py::arg("type_constraints") = py::none())
      .def_property_readonly("arg_types", [](const ir::FuncTypeNode& t) { return t.arg_types; })
      .def_property_readonly("ret_type", [](const ir::FuncTypeNode& t) { return t.ret_type; })
      .def_property_readonly("type_params", [](const ir::FuncTypeNode& t) { return t.type_params; })
      .def_property_readonly("type_constraints",
                             [](const ir::FuncTypeNode&) { return py::list(); });

  py::class_<ir::RefTypeNode, ir::TypeNode, ir::Ref<ir::RefTypeNode>>(m, "RefType")
      .def(py::init([](const ir::Type& value) {
             return ir::RefType(value).downcast<ir::RefTypeNode>();
           }),
           py::arg("value"))
      .def_property_readonly("value", [](const ir::RefTypeNode& t) { return t.value; });

  py::class_<ir::IncompleteTypeNode, ir::TypeNode, ir::Ref<ir::IncompleteTypeNode>>(
      m, "IncompleteType")
      .def(py::init([](const py::object&) {
             return ir::IncompleteType().downcast<ir::IncompleteTypeNode>();
           }),
           py::arg("kind") = py::none());
}

void BindNDArray(py::module_& m) {
  py::class_<ir::NDArray>(m, "NDArray")
      .def(py::init(
               [](const py::array& a, const std::string& dtype) { return FromNumpy(a, dtype); }),
           py::arg("array"), py::arg("dtype") = "")
      .def_property_readonly("shape", [](const ir::NDArray& a) { return ShapeTuple(a.shape()); })
      .def_property_readonly("dtype", [](const ir::NDArray& a) { return a.dtype().ToString(); })
      .def_property_readonly("ndim", &ir::NDArray::ndim)
      .def("numpy", &ToNumpy)
      .def("asnumpy", &ToNumpy)
      .def("same_as",
           [](const ir::NDArray& a, const ir::NDArray& b) {
             return a.raw_data() == b.raw_data() && a.shape() == b.shape() &&
                    a.dtype() == b.dtype();
           })
      // TVM's NDArray.copyfrom on an array of the same shape and dtype: the bytes are copied
      // into this array's storage (every holder of it sees the new values, as in TVM).
      .def("_copy_bytes_from", [](ir::NDArray& a, const ir::NDArray& source) {
        if (a.shape() != source.shape() || a.dtype() != source.dtype()) {
          throw py::value_error("array shape do not match the shape of NDArray " +
                                ShapeTuple(source.shape()).attr("__repr__")().cast<std::string>() +
                                " vs " +
                                ShapeTuple(a.shape()).attr("__repr__")().cast<std::string>());
        }
        if (a.raw_data() != source.raw_data() && a.nbytes() > 0) {
          std::memcpy(a.mutable_raw_data(), source.raw_data(), a.nbytes());
        }
      });
}

}  // namespace relaypass::python
