"""tcfg plugin: AWS Trainium (the ``trn`` kind, Trn1/Trn2 instance tags).

:func:`instance_tags` gives the instance tags this plugin registers.
"""

from tcfg_aws.tags import instance_tags

__all__ = ["instance_tags"]
