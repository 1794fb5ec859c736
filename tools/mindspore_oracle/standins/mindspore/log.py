"""Stand-in for mindspore.log: MindSpore's logger, as a Python logger.

The real module formats its own prefix ("[WARNING] ME(pid,...):time [file:line] ");
the oracle records the level and the message, which are the profiler's own.
"""
import logging

_LOGGER = logging.getLogger("mindspore")


def debug(msg, *args, **kwargs):
    _LOGGER.debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _LOGGER.info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    _LOGGER.warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    _LOGGER.error(msg, *args, **kwargs)


def critical(msg, *args, **kwargs):
    _LOGGER.critical(msg, *args, **kwargs)


def exception(msg, *args, **kwargs):
    _LOGGER.error(msg, *args, **kwargs)
