"""Trains ResNet-50 on ImageNet with Paddle's fluid API."""
import argparse

import paddle.fluid as fluid

parser = argparse.ArgumentParser()
parser.add_argument('--use_fast_executor', action='store_true')


def train(args, loss, main_program):
    exe = fluid.ParallelExecutor(use_cuda=True, loss_name=loss.name,
                                 main_program=main_program)
    return exe
