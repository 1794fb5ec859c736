"""Stand-in for torch_npu.npu.mstx: markers are no-ops."""


class mstx:
    @staticmethod
    def mark(*args, **kwargs):
        return None

    @staticmethod
    def range_start(*args, **kwargs):
        return 0

    @staticmethod
    def range_end(*args, **kwargs):
        return None

    @staticmethod
    def mstx_range(*args, **kwargs):
        def wrap(func):
            return func
        return wrap


mark = mstx.mark
range_start = mstx.range_start
range_end = mstx.range_end
