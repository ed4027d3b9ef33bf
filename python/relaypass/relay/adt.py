"""tvm.relay.adt: algebraic data types: constructors, type definitions (TypeData), match
expressions (Match, Clause) and their patterns, over relaypass._core."""
from .._core import (  # noqa: F401
    Constructor,
    TypeData,
    Clause,
    Match,
    Pattern,
    PatternWildcard,
    PatternVar,
    PatternConstructor,
    PatternTuple,
)
