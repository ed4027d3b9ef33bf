"""relay.TypeFunctor, TypeVisitor and TypeMutator, subclassable as in TVM: override
visit_tensor_type, visit_func_type, ... and call self.visit(child).

relaypass's types are TensorType, TupleType, FuncType, RefType and IncompleteType (its IR has no
type variables, type relations or ADTs, so visit_type_var, visit_type_relation,
visit_global_type_var, visit_type_call and visit_type_data are never dispatched to). As TVM's,
visiting follows the type's nesting with Python calls; types are shallow (the expressions they
annotate may be deep, but that is not a type's nesting)."""
from .ty import FuncType, IncompleteType, RefType, TensorType, TupleType


class TypeFunctor:
    """An abstract visitor defined over Type: dispatches on the type's class."""

    def __init__(self):
        pass

    def visit(self, typ):
        """Apply the visitor to a type."""
        if isinstance(typ, IncompleteType):
            return self.visit_incomplete_type(typ)
        if isinstance(typ, TensorType):
            return self.visit_tensor_type(typ)
        if isinstance(typ, FuncType):
            return self.visit_func_type(typ)
        if isinstance(typ, TupleType):
            return self.visit_tuple_type(typ)
        if isinstance(typ, RefType):
            return self.visit_ref_type(typ)
        raise Exception("unhandled case: {}".format(type(typ)))

    def visit_type_var(self, _):
        raise NotImplementedError()

    def visit_incomplete_type(self, _):
        raise NotImplementedError()

    def visit_tensor_type(self, _):
        raise NotImplementedError()

    def visit_func_type(self, _):
        raise NotImplementedError()

    def visit_tuple_type(self, _):
        raise NotImplementedError()

    def visit_type_relation(self, _):
        raise NotImplementedError()

    def visit_ref_type(self, _):
        raise NotImplementedError()

    def visit_global_type_var(self, _):
        raise NotImplementedError()

    def visit_type_call(self, _):
        raise NotImplementedError()

    def visit_type_data(self, _):
        raise NotImplementedError()


class TypeVisitor(TypeFunctor):
    """A visitor over Type: the default behaviour visits every component type."""

    def visit_incomplete_type(self, it):
        pass

    def visit_tensor_type(self, tt):
        pass

    def visit_func_type(self, ft):
        for arg_type in ft.arg_types:
            self.visit(arg_type)
        self.visit(ft.ret_type)

    def visit_tuple_type(self, tt):
        for field in tt.fields:
            self.visit(field)

    def visit_ref_type(self, rt):
        self.visit(rt.value)


class TypeMutator(TypeFunctor):
    """A functional visitor over Type: the default behaviour rebuilds the type from its visited
    components (an IncompleteType comes back as it is)."""

    def visit_incomplete_type(self, it):
        return it

    def visit_tensor_type(self, tt):
        return TensorType(tt.shape, tt.dtype)

    def visit_func_type(self, ft):
        return FuncType([self.visit(a) for a in ft.arg_types], self.visit(ft.ret_type))

    def visit_tuple_type(self, tt):
        return TupleType([self.visit(field) for field in tt.fields])

    def visit_ref_type(self, rt):
        return RefType(self.visit(rt.value))
