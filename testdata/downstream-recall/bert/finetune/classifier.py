import numpy as np


def evaluate(exe, test_program, phase):
    if phase == "train":
        outputs = exe.run(fetch_list=["loss"])
        return np.mean(outputs[0])
    return None


def predict(test_program, runner=None):
    probs, = runner.run(fetch_list=["probs"])
    return probs


def score(exe, test_program):
    return exe.run(program=test_program, fetch_list=["acc"])
