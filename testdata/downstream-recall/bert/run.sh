#!/bin/bash
# fine-tune with PaddlePaddle
python -u train.py --parallel True --use_default_pe False
