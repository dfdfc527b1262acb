# Builds nccl_scale.csv from tables transcribed from the cited sources (out-of-place columns only).
import csv, re, subprocess

COLS="system,gpu,gpus_per_node,nics_per_node,nic_gbps,fabric,sharp,nccl_version,algo,nodes,gpus,size_bytes,time_us,busbw_gbps,source".split(",")
rows=[]
def add(meta, table):
    for size,t,bb in table:
        r=dict(meta); r.update(size_bytes=size,time_us=t,busbw_gbps=bb); rows.append(r)

def parse(txt):
    out=[]
    for line in txt.strip().splitlines():
        f=line.split()
        if len(f)<8 or not f[0].isdigit(): continue
        # nccl-tests layout: size count type redop [root] time algbw busbw ...
        if f[4]=='-1' or re.fullmatch(r'-?\d+',f[4]): t,bb=f[5],f[7]
        else: t,bb=f[4],f[6]
        out.append((int(f[0]),float(t),float(bb)))
    return out

def git_show(repo,commit,path):
    return subprocess.run(["git","-C",f"/work/.mirror/{repo}/repo","show",f"{commit}:{path}"],capture_output=True,text=True,check=True).stdout

# ---------- CoreWeave GB200 NVL72 (README, commit cb865533) ----------
CW="https://github.com/coreweave/nccl-tests/blob/cb86553328f8c9ed6f9d682971f5f9b17a926ab4/README.md"
cw=git_show("coreweave+nccl-tests","cb86553328f8c9ed6f9d682971f5f9b17a926ab4","README.md")
def block_after(txt,marker,n=1):
    i=txt.index(marker); j=txt.index("```",txt.index("```",i)+3); return txt[i:j]
base=dict(system="CoreWeave GB200 NVL72 (4 GPU/tray, MNNVL)",gpu="GB200",gpus_per_node=4,nics_per_node=4,nic_gbps=400,
          fabric="NVLink5 MNNVL in rack + InfiniBand (Quantum-X800 per README) across racks",sharp="unknown (README says SHARP-capable; job script sets NCCL_NET_PLUGIN=none)",
          nccl_version="2.26.2",algo="default")
add({**base,"nodes":18,"gpus":72,"source":CW+"#single-rack"}, parse(block_after(cw,"#### Single Rack")))
add({**base,"nodes":36,"gpus":144,"source":CW+"#2-racks"}, parse(block_after(cw,"#### 2 Racks")))
add({**base,"nodes":360,"gpus":1440,"source":CW+"#20-racks"}, parse(block_after(cw,"#### 20 Racks")))
# CoreWeave H100 + IB SHARP example (8 nodes, below 16-node threshold but the only SHARP table found)
add(dict(system="CoreWeave HGX H100 (mpi-operator example)",gpu="H100-SXM",gpus_per_node=8,nics_per_node=8,nic_gbps=400,fabric="InfiniBand NDR",
         sharp="on (IB SHARP via CollNet)",nccl_version="unknown",algo="NCCL_ALGO=COLLNETCHAIN NCCL_COLLNET_ENABLE=1",nodes=8,gpus=64,
         source=CW+"#running-jobs (manifest mpi-operator/nccl-test-distributed-h100-64-sharp-mpijob.yaml)"),
    parse(block_after(cw,"kubectl apply -f nccl-test-distributed-h100-64-sharp-mpijob.yaml")))

# ---------- Oracle OCI GB200-v3.4, 32 nodes / 2 racks (oci-hpc-oke README, commit 003aae91) ----------
OK="https://github.com/oracle-quickstart/oci-hpc-oke/blob/003aae91b115ec5268bce8321713b3778909ed4c/README.md"
ok=git_show("oracle-quickstart+oci-hpc-oke","003aae91b115ec5268bce8321713b3778909ed4c","README.md")
add(dict(system="OCI BM.GPU.GB200-v3.4 (NVL72 racks)",gpu="GB200",gpus_per_node=4,nics_per_node=8,nic_gbps=400,
         fabric="NVLink5 MNNVL in rack + RoCEv2 across racks",sharp="off (RoCE)",nccl_version="2.29.2",algo="default",nodes=32,gpus=128,
         source=OK+" (section 'Example results from 32 BM.GPU.GB200-v3.4 nodes across two racks')"),
    parse(block_after(ok,"Example results from 32 BM.GPU.GB200-v3.4")))

# ---------- Oracle oci-gpu-quickstarts GB200 & GB300 (commit 6a0abdc7) ----------
QC="6a0abdc78b574b28eb10926387615c8414ed8c1d"
QG="https://github.com/oracle-quickstart/oci-gpu-quickstarts/blob/%s/nvidia/GB200/README-GB200.md"%QC
qg=git_show("oracle-quickstart+oci-gpu-quickstarts",QC,"nvidia/GB200/README-GB200.md")
gb200=dict(system="OCI GB200 NVL72 (shape not named for multi-rack runs)",gpu="GB200",gpus_per_node=4,nics_per_node=4,nic_gbps=400,
           fabric="NVLink5 MNNVL in rack + IB or RoCE across racks (not stated)",sharp="unknown (nccl_rdma_sharp_plugin loaded as NET_PLUGIN)",nccl_version="2.27.3",algo="default")
add({**gb200,"nodes":32,"gpus":128,"source":QG+"#nccl-all-reduce-scale-performance-multi-node-2-racks---32-nodes"}, parse(block_after(qg,"#### NCCL All Reduce Scale Performance Multi-node 2 Racks")))
add({**gb200,"nodes":48,"gpus":192,"source":QG+"#nccl-all-reduce-scale-performance-multi-node-3-racks---48-nodes"}, parse(block_after(qg,"#### NCCL All Reduce Scale Performance Multi-node 3 Racks")))
Q3="https://github.com/oracle-quickstart/oci-gpu-quickstarts/blob/%s/nvidia/GB300/README-GB300.md"%QC
q3=git_show("oracle-quickstart+oci-gpu-quickstarts",QC,"nvidia/GB300/README-GB300.md")
gb300=dict(system="OCI BM.GPU.GB300.4 (NVL72 racks)",gpu="GB300",gpus_per_node=4,nics_per_node=8,nic_gbps=400,
           sharp="off (RoCE; sharp plugin loaded)",nccl_version="2.28.7",algo="default (NCCL_NVLS_ENABLE=1 NCCL_MNNVL_ENABLE=1)")
add({**gb300,"fabric":"NVLink5 MNNVL only (all 16 trays in one rack)","nodes":16,"gpus":64,"source":Q3+"#nccl-all-reduce-scale-performance-multi-node-1-rack---16-nodes"},
    parse(block_after(q3,"#### NCCL All Reduce Scale Performance Multi-node 1 Rack")))
add({**gb300,"fabric":"NVLink5 MNNVL in rack + RoCEv2 8x400G across racks","nodes":32,"gpus":128,"source":Q3+"#nccl-all-reduce-scale-performance-multi-node-2-racks---32-nodes"},
    parse(block_after(q3,"#### NCCL All Reduce Scale Performance Multi-node 2 Racks")))

# ---------- AWS p5.48xlarge EFA, 2..32 nodes (crazyguitar/aws-gpu-communication-benchmark, commit fd167f97) ----------
AW="https://github.com/crazyguitar/aws-gpu-communication-benchmark/blob/fd167f97ab85009ff342f91e7117a80fd3741f39/data/nccl_all_reduce.csv"
aw=git_show("crazyguitar+aws-gpu-communication-benchmark","fd167f97ab85009ff342f91e7117a80fd3741f39","data/nccl_all_reduce.csv")
for rec in csv.DictReader(aw.splitlines()):
    n=int(rec["Nodes"]); g=int(rec["GPUs"]); size=int(rec["size(MB)"])*2**20
    algbw=float(rec["out algbw(GB/s)"]); bb=float(rec["out busbw(GB/s)"])
    rows.append(dict(system="AWS p5.48xlarge (SageMaker HyperPod EKS)",gpu="H100-SXM",gpus_per_node=8,nics_per_node=32,nic_gbps=100,fabric="EFA (SRD), 3200 Gbps/node",
        sharp="off (n/a)",nccl_version="2.28.7 (Dockerfile ARG; aws-ofi-nccl 1.16.3 + ofi tuner plugin)",algo="default (ofi tuner)",nodes=n,gpus=g,
        size_bytes=size,time_us=round(size/(algbw*1e3),1),busbw_gbps=bb,source=AW+" (time_us DERIVED = size/algbw; CSV has no time column; MB assumed 2^20)"))

# ---------- GitHub issues: partial tables transcribed from issue text ----------
I652="https://github.com/NVIDIA/nccl/issues/652 (description, 2022-03-18)"
add(dict(system="8xA100-SXM4 cluster, 4 HDR HCAs/node",gpu="A100-SXM4",gpus_per_node=8,nics_per_node=4,nic_gbps=200,fabric="InfiniBand HDR",sharp="unknown",
         nccl_version="unknown (2022)",algo="default",nodes=32,gpus=256,source=I652),
    [(4,70.95,0.0),(8,62.99,0.0),(16,62.85,0.0),(32,65.46,0.0),(64,63.54,0.0),(128,63.94,0.0)])
I1469="https://github.com/NVIDIA/nccl/issues/1469 (description, 2024-10-03)"
add(dict(system="H100 cluster (16 nodes; NICs not stated)",gpu="H100",gpus_per_node=8,nics_per_node="",nic_gbps="",fabric="unknown",sharp="unknown",
         nccl_version="2.20.5",algo="default",nodes=16,gpus=128,source=I1469),
    [(8,72.01,0.0),(16,62.15,0.0),(32,62.18,0.0),(64,62.39,0.0),(128,62.38,0.0),(256,73.17,0.0),(512,67.39,0.02),(1024,73.73,0.03),(2048,76.84,0.05),(4096,76.61,0.11)])
# headline numbers (no time column given)
rows.append(dict(system="H100 cluster (16 nodes; NICs not stated)",gpu="H100",gpus_per_node=8,nics_per_node="",nic_gbps="",fabric="unknown",sharp="unknown",nccl_version="2.20.5",
   algo="default",nodes=16,gpus=128,size_bytes=67108864,time_us="",busbw_gbps=150,source=I1469+" HEADLINE: '~150GB/s' at 64MB in good runs, much lower in most runs"))
rows.append(dict(system="8xH200 cluster, 8 HCAs (mlx5_1..8)",gpu="H200",gpus_per_node=8,nics_per_node=8,nic_gbps="",fabric="unknown (IB or RoCE not stated)",sharp="unknown",nccl_version="unknown",
   algo="default",nodes=248,gpus=1984,size_bytes=536870912,time_us="",busbw_gbps=350,source="https://github.com/NVIDIA/nccl-tests/issues/283 (description, 2025-01-18) HEADLINE: 'typically around 350G, occasionally below 300G' at 512M"))
rows.append(dict(system="8xH100 cluster, 8 HCAs, NCCL_IB_GID_INDEX=3",gpu="H100",gpus_per_node=8,nics_per_node=8,nic_gbps="",fabric="RoCE (GID index 3)",sharp="off",nccl_version="unknown",
   algo="default; NCCL_MIN/MAX_NCHANNELS=16",nodes=32,gpus=256,size_bytes=2147483648,time_us="",busbw_gbps=340,source="https://github.com/NVIDIA/nccl/issues/1218 (description, 2024-03-12) HEADLINE, INTERPRETED: '340GB' stated after the command; title says all_gather got only 200GBps, so 340 is read as the all_reduce busbw at 2G"))

with open("nccl_scale.csv","w",newline="") as f:
    w=csv.DictWriter(f,fieldnames=COLS); w.writeheader(); [w.writerow(r) for r in rows]
print(len(rows),"rows")
