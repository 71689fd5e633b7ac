"""ONNX protobuf wire bytes written by hand, for the Python tests (CLI, hostile input, fuzz
seeds): small models without python3-onnx, and models protobuf's own classes cannot write
(repeated singular fields). Also the temporary-folder fixture the CLI suites share."""
import os
import shutil
import tempfile
import unittest


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field(number, payload):
    """A length-delimited field (payload: bytes or str)."""
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def int_field(number, value):
    return varint(number << 3) + varint(value)


def value_info(name):
    """A ValueInfoProto: float tensor of shape [1]."""
    shape = field(1, int_field(1, 1))  # TensorShapeProto.dim { dim_value: 1 }
    return field(1, name) + field(2, field(1, int_field(1, 1) + field(2, shape)))


def node(op, inputs, outputs, name, domain="", attrs=b""):
    """A NodeProto (name may be bytes, for names that are not UTF-8)."""
    return (b"".join(field(1, i) for i in inputs) + b"".join(field(2, o) for o in outputs)
            + field(3, name) + field(4, op) + (field(7, domain) if domain else b"") + attrs)


def model(nodes, inputs=("x",), outputs=("y",), producer=("onnxlint-tests", "1"), opset=17):
    """A ModelProto (IR 8) whose graph "g" holds `nodes` (NodeProto bytes)."""
    graph = b"".join(field(1, n) for n in nodes) + field(2, "g")
    graph += b"".join(field(11, value_info(i)) for i in inputs)
    graph += b"".join(field(12, value_info(o)) for o in outputs)
    out = int_field(1, 8)
    if producer[0]:
        out += field(2, producer[0])
    if producer[1]:
        out += field(3, producer[1])
    return out + field(7, graph) + field(8, int_field(2, opset))


class TempModels(unittest.TestCase):
    """A test case with a fresh temporary folder (`self.dir`) and `write(relative, data)`."""
    prefix = "onnxlint-test-"

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix=self.prefix)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, relative, data):
        path = os.path.join(self.dir, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        return path
