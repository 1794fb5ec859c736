"""Stand-in for mindspore.communication: one process, rank 0."""
from .management import get_rank, get_local_rank, GlobalComm  # noqa: F401
