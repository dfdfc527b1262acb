# Independent counts for the four shared ONNX graphs: onnx's own shape
# inference, then parameters and forward FLOPs by the contract's formulas.
import onnx, sys
from onnx import shape_inference, numpy_helper
import numpy as np
for f in sys.argv[1:]:
    m = onnx.load(f)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    # fold ConstantOfShape into initializers so that inference knows weight shapes
    shapes = {t.name: list(t.dims) for t in g.initializer}
    for n in g.node:
        if n.op_type == "ConstantOfShape":
            shapes[n.output[0]] = [int(v) for v in numpy_helper.to_array(inits[n.input[0]])]
    # build a model with those weights as real initializers
    nodes = [n for n in g.node if n.op_type != "ConstantOfShape"]
    new_inits = [t for t in g.initializer if not t.name.endswith("__SHAPE")]
    for n in g.node:
        if n.op_type == "ConstantOfShape":
            new_inits.append(numpy_helper.from_array(np.zeros(shapes[n.output[0]], dtype=np.float32), n.output[0]))
    data = [i for i in g.input if i.name not in inits]
    g2 = onnx.helper.make_graph(nodes, g.name, data, list(g.output), new_inits)
    m2 = onnx.helper.make_model(g2, opset_imports=m.opset_import)
    m2.ir_version = 8
    inf = shape_inference.infer_shapes(m2, strict_mode=True)
    vi = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in list(inf.graph.value_info) + list(inf.graph.input) + list(inf.graph.output)}
    for t in new_inits: vi[t.name] = list(t.dims)
    params = 0; flops = 0
    prod = lambda l: int(np.prod(l)) if len(l) else 1
    for n in nodes:
        op = n.op_type
        y = vi.get(n.output[0], [])
        if not y: print("no shape", op, n.output[0], file=sys.stderr)
        x = vi.get(n.input[0], [])
        if op == "Conv":
            w = vi[n.input[1]]
            g_ = next((a.i for a in n.attribute if a.name == "group"), 1)
            params += prod(w) + (w[0] if len(n.input) > 2 else 0)
            flops += 2 * prod(w[1:]) * w[0] * prod(y[2:])   # 2·(C/g)·ΠK·F·Π(y spatial)
        elif op == "Gemm":
            w = vi[n.input[1]]
            params += prod(w) + (w[0] if len(n.input) > 2 else 0)
            flops += 2 * prod(w)
        elif op == "BatchNormalization":
            params += 2 * vi[n.input[1]][0]
            flops += 4 * prod(x[1:])
        elif op in ("MaxPool", "AveragePool"):
            k = next(a.ints for a in n.attribute if a.name == "kernel_shape")
            flops += y[1] * prod(k) * prod(y[2:])
        elif op in ("GlobalAveragePool",):
            flops += x[1] * prod(x[2:])
        elif op in ("Relu", "Sum", "Add", "LRN", "Softmax"):
            flops += prod(y[1:])
    print(f.split('/')[-1], params, flops)
