"""The module's parameters: each chain of prim::GetAttr nodes that ends at a state_dict entry
becomes a Relay variable named after its first user's source name and the attribute
(``aten::_convolution_0.weight``, as TVM v0.13 names them), its tensor an NDArray."""
from ... import expr as _expr
from .... import nd as _nd
from .graph import all_nodes, getattr_chains, getattr_name, users


def convert_params(graph, state_dict, source_names, use_parser_friendly_name=False):
    """Returns ({GetAttr output name: var}, {var name: NDArray}, {GetAttr output name: attr} for
    quantized packed parameters)."""
    separator = "_" if use_parser_friendly_name else "."
    param_vars, tensors, packed, vars_by_name = {}, {}, {}, {}
    seen = set()
    for node in all_nodes(graph):
        if node.kind() != "prim::GetAttr" or node.output().debugName() in seen:
            continue
        for chain in getattr_chains(node):
            seen.update(n.output().debugName() for n in chain)
            full_attr = separator.join(getattr_name(n) for n in chain)
            last = chain[-1]
            key = last.output().debugName()
            consumers = users(last)
            if not consumers:
                continue  # an attribute read but never used
            var_name = separator.join(
                [source_names[consumers[0]], full_attr.split(separator)[-1]])
            if full_attr.endswith("_packed_params"):
                packed[key] = full_attr
            elif full_attr in state_dict:
                var = vars_by_name.get(var_name)
                if var is None:
                    array = state_dict[full_attr].detach().cpu().numpy()
                    tensors[var_name] = _nd.array(array)
                    var = _expr.var(var_name, shape=array.shape, dtype=str(array.dtype))
                    vars_by_name[var_name] = var
                param_vars[key] = var
    return param_vars, tensors, packed
