import argparse
import threading

import paddle.fluid as fluid

from finetune.classifier import evaluate
from finetune import classifier as clf

parser = argparse.ArgumentParser()
parser.add_argument("--parallel", type=bool, default=True)
parser.add_argument("--use_default_pe", type=bool, default=False)
args = parser.parse_args()


def train_worker(idx, train_exe, steps):
    for _ in range(steps):
        train_exe.run(fetch_list=[])


def main(loss, test_prog):
    exe = fluid.Executor(fluid.CUDAPlace(0))
    train_exe = exe
    if args.parallel:
        train_exe = fluid.ParallelExecutor(use_cuda=True, loss_name=loss.name)
    # use the parallel executor to speed up training
    worker = threading.Thread(target=train_worker, args=(0, train_exe, 100))
    worker.start()
    worker.join()
    evaluate(train_exe, test_prog, "train")
    clf.predict(test_prog, runner=train_exe)
