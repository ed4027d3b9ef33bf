"""relay.TypeFunctor, TypeVisitor and TypeMutator, subclassable as in TVM: override
visit_tensor_type, visit_func_type, ... and call self.visit(child).

relaypass's types are TensorType, TupleType, FuncType, RefType, IncompleteType, TypeVar,
GlobalTypeVar, TypeCall and TypeData (it has no type relations as types, so visit_type_relation
is never dispatched to). As TVM's,
visiting follows the type's nesting with Python calls; types are shallow (the expressions they
annotate may be deep, but that is not a type's nesting)."""
from .ty import (
    FuncType,
    GlobalTypeVar,
    IncompleteType,
    RefType,
    TensorType,
    TupleType,
    TypeCall,
    TypeData,
    TypeVar,
)


class TypeFunctor:
    """An abstract visitor defined over Type: dispatches on the type's class."""

    def __init__(self):
        pass

    def visit(self, typ):
        """Apply the visitor to a type."""
        if isinstance(typ, IncompleteType):
            return self.visit_incomplete_type(typ)
        if isinstance(typ, TypeVar):
            return self.visit_type_var(typ)
        if isinstance(typ, TensorType):
            return self.visit_tensor_type(typ)
        if isinstance(typ, FuncType):
            return self.visit_func_type(typ)
        if isinstance(typ, TupleType):
            return self.visit_tuple_type(typ)
        if isinstance(typ, RefType):
            return self.visit_ref_type(typ)
        if isinstance(typ, GlobalTypeVar):
            return self.visit_global_type_var(typ)
        if isinstance(typ, TypeCall):
            return self.visit_type_call(typ)
        if isinstance(typ, TypeData):
            return self.visit_type_data(typ)
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

    def visit_type_var(self, tv):
        pass

    def visit_func_type(self, ft):
        for arg_type in ft.arg_types:
            self.visit(arg_type)
        self.visit(ft.ret_type)
        for type_param in getattr(ft, "type_params", []):
            self.visit(type_param)

    def visit_tuple_type(self, tt):
        for field in tt.fields:
            self.visit(field)

    def visit_ref_type(self, rt):
        self.visit(rt.value)

    def visit_global_type_var(self, gtv):
        pass

    def visit_type_call(self, tc):
        self.visit(tc.func)
        for arg in tc.args:
            self.visit(arg)

    def visit_type_data(self, td):
        self.visit(td.header)
        for type_var in td.type_vars:
            self.visit(type_var)


class TypeMutator(TypeFunctor):
    """A functional visitor over Type: the default behaviour rebuilds the type from its visited
    components (an IncompleteType comes back as it is)."""

    def visit_incomplete_type(self, it):
        return it

    def visit_tensor_type(self, tt):
        return TensorType(tt.shape, tt.dtype)

    def visit_type_var(self, tv):
        return TypeVar(tv.name_hint, tv.kind)

    def visit_func_type(self, ft):
        return FuncType(
            [self.visit(a) for a in ft.arg_types],
            self.visit(ft.ret_type),
            [self.visit(p) for p in getattr(ft, "type_params", [])],
        )

    def visit_tuple_type(self, tt):
        return TupleType([self.visit(field) for field in tt.fields])

    def visit_ref_type(self, rt):
        return RefType(self.visit(rt.value))

    def visit_global_type_var(self, gtv):
        return GlobalTypeVar(gtv.name_hint, gtv.kind)

    def visit_type_call(self, tc):
        return TypeCall(self.visit(tc.func), [self.visit(arg) for arg in tc.args])

    def visit_type_data(self, td):
        return TypeData(
            self.visit(td.header), [self.visit(tv) for tv in td.type_vars], td.constructors
        )
