"""Builders shared by the generator modules of this folder (a leading underscore: the growth
test does not take this file for a generator module)."""
from onnx import TensorProto, helper


def model(nodes, inputs, outputs, initializers=(), opset=17):
    """The serialized bytes of a one-graph model of default-domain `opset`, IR 8."""
    graph = helper.make_graph(list(nodes), "g", list(inputs), list(outputs), list(initializers))
    m = helper.make_model(graph, producer_name="hostile-generators",
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m.SerializeToString()


def i64(name, values, dims=None):
    """An int64 initializer: a vector of `values`, or `dims` when given."""
    values = list(values)
    return helper.make_tensor(name, TensorProto.INT64, [len(values)] if dims is None else dims,
                              values)


def tensor(name, elem=TensorProto.FLOAT, dims=None):
    """A graph input or output of element type `elem` and shape `dims` (None: no shape)."""
    return helper.make_tensor_value_info(name, elem, dims)
