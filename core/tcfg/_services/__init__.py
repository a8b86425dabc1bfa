"""Services built on Target, imported on first use: CompilationConfig, generic functions,
tuning records, TVM conversion both ways and marshmallow schemas.
"""
