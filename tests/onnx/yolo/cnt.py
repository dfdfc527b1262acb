import sys, onnx, numpy as np, torch, os
os.environ["YOLO_OFFLINE"]="1"
from ultralytics import YOLO
n=sys.argv[1]
m=YOLO(f"{n}.yaml").model.eval()
p=sum(x.numel() for x in m.parameters())
bn=sum(x.numel() for k,x in m.named_parameters() if ".bn." in k)
nbn=sum(mod.num_features for mod in m.modules() if isinstance(mod, torch.nn.BatchNorm2d))
m.fuse(verbose=False)
pf=sum(x.numel() for x in m.parameters())
print(n, "torch", p, "bn params", bn, "fused torch", pf, "expected fused", p-bn+nbn)
g=onnx.load(f"{n}.onnx").graph
# sizes of ConstantOfShape weights
tot=0; big=[]
for nd in g.node:
    if nd.op_type=="ConstantOfShape" and nd.output[0]+"__shape"==nd.input[0]:
        init=[i for i in g.initializer if i.name==nd.input[0]][0]
        s=int(np.prod(onnx.numpy_helper.to_array(init))); tot+=s; big.append((s,nd.output[0]))
small=sum(int(np.prod(i.dims)) for i in g.initializer if not i.name.endswith("__shape"))
print("onnx weight elems (lightened)", tot, "small inits", small); print(sorted(big)[-6:])
