"""What a target is: kinds, attributes, features, CPU parsing, codegen and the Target.

Imports ``tcfg._base`` only. The model sees a registry through ``registry_view.RegistryView``
(a Protocol of the few members it uses), never the registry itself.
"""
