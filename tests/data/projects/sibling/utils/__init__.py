from .flags_def import FLAGS
