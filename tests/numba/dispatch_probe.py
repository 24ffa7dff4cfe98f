"""Which eager signature does Numba's CUDA dispatcher pick?  A probe of the
rule kjit implements (ir/dispatch.h), run under real Numba on a machine with
a GPU, from the repository root:
    python3 tests/numba/dispatch_probe.py              # each case in a fresh process
    python3 tests/numba/dispatch_probe.py --same-process
Each case is a list of signatures and a call's arguments (Python
expressions over np and cuda); the kernel of that many parameters has an
empty body, so every signature compiles.  The signature the dispatcher picks
is read where the launch starts (the _Kernel whose launch is called), before
the arguments are marshalled.  One JSON line per case:
    {"id": ..., "sigs": [...], "args": "...", "numba": 1 | "ambiguous" |
     "none" | "error: ...", "kjit": <kjit's choice>, "agree": true|false,
     "launch_error": null | "TypeError: ..." (raised after the choice)}
then a closing line "N agree, N differ".  Fresh processes are the default
because Numba's type manager keeps the conversions a call installs (an
array to a [:] parameter, a tuple) for the rest of the process, so an
earlier case can change a later one's answer; --same-process shows that
effect.  kjit follows a fresh process.
"""
import json
import subprocess
import sys

# (id, signatures, arguments, kjit's choice: index, "ambiguous" or "none")
FI = ["void(float64)", "void(int64)"]
FF = ["void(float32)", "void(float64)"]
IU = ["void(int32)", "void(int64)", "void(uint64)"]
CF = ["void(complex64)", "void(float64)"]
CC = ["void(complex64)", "void(complex128)"]
BI = ["void(boolean)", "void(int8)"]
TWO = ["void(float64, int64)", "void(int64, float64)"]
LAY = ["void(float64[:], int64)", "void(float64[::1], float64)"]
STR = ["void(float64[:], float64)", "void(float64[:], int64)"]
CA = ["void(float64[:])", "void(float64[::1])"]
F2 = ["void(float64[:, :])", "void(float64[:, ::1])"]
F2S = ["void(float64[:, :], float64)", "void(float64[:, :], int64)"]
DT = ["void(float32[::1])", "void(float64[::1])"]
TU = ["void(UniTuple(float64, 2))", "void(UniTuple(int64, 2))"]
FW = ["void(float64[:, :], float64[::1], int32)", "void(float64[:, :], float64[:], int64)"]
MIX = ["void(float64[:, :], float64[::1], float64)", "void(float64[:, :], float64[:], int64)"]
CASES = [
    ("fi/int64_2p53p1", FI, "9007199254740993", 1),
    ("fi/float64", FI, "2.5", 0),
    ("fi/int32", FI, "np.int32(2097153)", 1),
    ("fi/int16", FI, "np.int16(7)", 1),
    ("fi/int8", FI, "np.int8(-5)", 1),
    ("fi/float32", FI, "np.float32(0.1)", 0),
    ("fi/float16", FI, "np.float16(1.5)", 0),
    ("fi/uint64", FI, "np.uint64(2**63 + 5)", 0),
    ("fi/uint32", FI, "np.uint32(7)", "ambiguous"),
    ("fi/uint8", FI, "np.uint8(7)", "ambiguous"),
    ("fi/bool", FI, "True", "ambiguous"),
    ("fi/np_bool", FI, "np.bool_(True)", "ambiguous"),
    ("fi/complex128", FI, "1+2j", "none"),
    ("fi/complex64", FI, "np.complex64(1)", "none"),
    ("ff/float64", FF, "0.1", 1),
    ("ff/float32", FF, "np.float32(0.1)", 0),
    ("ff/int64", FF, "16777217", 1),
    ("ff/int32", FF, "np.int32(3)", 1),
    ("ff/uint16", FF, "np.uint16(3)", 1),
    ("ff/int16", FF, "np.int16(3)", "ambiguous"),
    ("ff/int8", FF, "np.int8(3)", "ambiguous"),
    ("ff/uint8", FF, "np.uint8(3)", "ambiguous"),
    ("ff/float16", FF, "np.float16(0.5)", "ambiguous"),
    ("iu/int64", IU, "-3", 1),
    ("iu/uint32", IU, "np.uint32(4000000000)", 2),
    ("iu/int32", IU, "np.int32(-7)", 0),
    ("iu/uint8", IU, "np.uint8(200)", 2),
    ("iu/uint64", IU, "np.uint64(5)", 2),
    ("iu/int16", IU, "np.int16(-7)", "ambiguous"),
    ("iu/bool", IU, "True", "ambiguous"),
    ("iu/float64", IU, "2.5", "ambiguous"),
    ("cf/float32", CF, "np.float32(0.1)", 1),
    ("cf/float16", CF, "np.float16(0.5)", 1),
    ("cf/complex128", CF, "1.5+0.5j", 0),
    ("cf/int64", CF, "3", 1),
    ("cf/int16", CF, "np.int16(3)", "ambiguous"),
    ("cc/complex128", CC, "1+2j", 1),
    ("cc/complex64", CC, "np.complex64(1)", 0),
    ("cc/float64", CC, "2.5", 1),
    ("cc/float32", CC, "np.float32(1)", "ambiguous"),
    ("bi/bool", BI, "True", 0),
    ("bi/int8", BI, "np.int8(1)", 1),
    ("bi/int64", BI, "5", "ambiguous"),
    ("two/int32_int32", TWO, "np.int32(1), np.int32(1)", "ambiguous"),
    ("two/int64_float64", TWO, "1, 2.5", 1),
    ("two/float64_int64", TWO, "2.5, 1", 0),
    ("two/int64_int64", TWO, "1, 1", "ambiguous"),
    ("lay/C_int64", LAY, "np.zeros(4), 9007199254740993", 1),
    ("lay/C_float64", LAY, "np.zeros(4), 2.5", 1),
    ("lay/A_int64", LAY, "np.zeros(8)[::2], 1", 0),
    ("lay/A_float64", LAY, "np.zeros(8)[::2], 2.5", 0),
    ("lay/device_C_int64", LAY, "cuda.to_device(np.zeros(4)), 9007199254740993", 1),
    ("str/C_int64", STR, "np.zeros(4), 9007199254740993", 1),
    ("str/C_float64", STR, "np.zeros(4), 2.5", 0),
    ("ca/C", CA, "np.zeros(4)", 1),
    ("ca/A", CA, "np.zeros(8)[::2]", 0),
    ("f2/F", F2, "np.asfortranarray(np.zeros((3, 4)))", 0),
    ("f2/C", F2, "np.zeros((3, 4))", 1),
    ("f2s/F_int64", F2S, "np.asfortranarray(np.zeros((3, 4))), 1", 1),
    ("mix/A_C_int64", MIX, "np.zeros((3, 8))[:, ::2], np.zeros(4), 9007199254740993", 0),
    ("mix/F_C_int64", MIX, "np.asfortranarray(np.zeros((3, 4))), np.zeros(4), 1", "ambiguous"),
    ("mix/C_C_int64", MIX, "np.zeros((3, 4)), np.zeros(4), 1", "ambiguous"),
    ("fw/A_C_int64", FW, "np.zeros((3, 8))[:, ::2], np.zeros(4), 2147483653", 0),
    ("fw/F_C_int64", FW, "np.asfortranarray(np.zeros((3, 4))), np.zeros(4), 2147483653", 1),
    ("dt/int64_array", DT, "np.zeros(4, np.int64)", "none"),
    ("dt/float32_array", DT, "np.zeros(4, np.float32)", 0),
    ("tu/int64", TU, "(9007199254740993, 1)", 1),
    ("tu/float64_int64", TU, "(2.5, 1)", 0),
    ("tu/int32", TU, "(np.int32(3), np.int32(4))", 1),
    ("tu/complex", TU, "(1+1j, 1)", "none"),
]


def numba_choice(sigs, args_text):
    """(choice, launch error): the index of the signature Numba launches,
    "ambiguous", "none", or "error: ..." for any other exception before the
    launch; then the text of an error raised after the choice (Numba
    marshals a scalar with ctypes, which refuses a float for an integer
    parameter), else None."""
    import numpy as np
    np.row_stack = np.vstack  # Numba 0.68 still refers to it
    from numba import cuda
    from numba.cuda import dispatcher

    picked = []
    launch = dispatcher._Kernel.launch

    def spy(self, args, *rest, **kw):
        picked.append(tuple(str(t) for t in self.argument_types))
        return launch(self, args, *rest, **kw)

    dispatcher._Kernel.launch = spy
    try:
        args = eval("(%s,)" % args_text, {"np": np, "cuda": cuda})
        params = ", ".join("p%d" % i for i in range(len(args)))
        scope = {}
        exec("def k(%s):\n    pass\n" % params, scope)
        k = cuda.jit(list(sigs))(scope["k"])
        late = None
        try:
            k[1, 1](*args)
            cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - reported, never hidden
            text = "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0][:200])
            if picked:
                late = text
            elif isinstance(e, TypeError) and "Ambiguous" in str(e):
                return "ambiguous", None
            elif isinstance(e, TypeError) and "No matching definition" in str(e):
                return "none", None
            else:
                return "error: " + text, None
        if not picked:
            return "error: no launch", None
        types = {tuple(str(t) for t in sig.args): i
                 for i, sig in enumerate(k.nopython_signatures)}
        return types.get(picked[0], "error: launched %s" % (picked[0],)), late
    finally:
        dispatcher._Kernel.launch = launch


def run_case(i):
    cid, sigs, args, kjit = CASES[i]
    got, late = numba_choice(sigs, args)
    return {"id": cid, "sigs": sigs, "args": args, "numba": got, "kjit": kjit, "agree": got == kjit,
            "launch_error": late}


def main(argv):
    if len(argv) == 2 and argv[0] == "--case":
        print(json.dumps(run_case(int(argv[1]))))
        return 0
    same = "--same-process" in argv
    agree = differ = 0
    for i in range(len(CASES)):
        if same:
            row = run_case(i)
        else:
            p = subprocess.run([sys.executable, __file__, "--case", str(i)],
                               capture_output=True, text=True)
            lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
            row = json.loads(lines[-1]) if lines else {
                "id": CASES[i][0], "sigs": CASES[i][1], "args": CASES[i][2],
                "numba": "error: exit %d: %s" % (p.returncode, p.stderr.strip()[-300:]),
                "kjit": CASES[i][3], "agree": False}
        print(json.dumps(row), flush=True)
        agree += row["agree"]
        differ += not row["agree"]
    print("%d agree, %d differ" % (agree, differ))
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
