"""tcfg plugin: NVIDIA CUDA GPUs."""
