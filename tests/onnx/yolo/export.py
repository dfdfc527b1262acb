import sys, os, json, shutil, torch
sys.path.insert(0, "/work/shared/tools")
from torch_truth import lighten
torch.set_num_threads(2)
os.environ["YOLO_OFFLINE"] = "1"
HERE = os.path.dirname(os.path.abspath(__file__))
res = {}
name = sys.argv[1]
if name in ("yolov8n", "yolo11n", "yolov5n"):
    from ultralytics import YOLO
    y = YOLO(f"{name}.yaml")
    m = y.model.eval()
    res["params"] = sum(p.numel() for p in m.parameters())
    path = f"{HERE}/{name}_full.onnx"
    how = "ultralytics"
    try:
        out = y.export(format="onnx", imgsz=640, opset=17, simplify=False, dynamic=False)
        shutil.move(out, path)
    except Exception as e:
        print("ultralytics export failed:", repr(e)[:300]); how = "torch.onnx.export"
        m = YOLO(f"{name}.yaml").model.eval()
        torch.onnx.export(m, torch.zeros(1, 3, 640, 640), path, opset_version=17, dynamo=False)
    res["how"] = how; res["shape"] = "3x640x640"
else:
    import effdet
    m = effdet.create_model("efficientdet_d0", pretrained=False, pretrained_backbone=False).eval()
    res["params"] = sum(p.numel() for p in m.parameters())
    path = f"{HERE}/{name}_full.onnx"
    torch.onnx.export(m, torch.zeros(1, 3, 512, 512), path, opset_version=17, dynamo=False)
    res["how"] = "torch.onnx.export"; res["shape"] = "3x512x512"
lighten(path, f"{HERE}/{name}.onnx"); os.remove(path)
print(json.dumps(res)); json.dump(res, open(f"{HERE}/{name}.json", "w"))
