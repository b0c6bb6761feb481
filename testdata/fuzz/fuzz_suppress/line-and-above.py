import paddle.fluid as fluid
exe = fluid.ParallelExecutor()  # sunset-ignore[FZ-ONE]: kept until the CINN path lands
# sunset-ignore[FZ-TWO]: the compat shim still needs it
prog = CompiledProgram(main)
# sunset-ignore[FZ-ONE,FZ-TWO]: both on the next line
# sunset-ignore[FZ-*]: stacked markers reach the first code line
x = 1
