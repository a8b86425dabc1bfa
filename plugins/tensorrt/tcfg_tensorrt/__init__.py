"""tcfg plugin: NVIDIA TensorRT as a BYOC compiler."""
