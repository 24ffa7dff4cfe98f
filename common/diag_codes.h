/* diag_codes.h - the one table of kjit's diagnostic codes (X-macro).
 *
 * DIAG_CODES(X) lists X(NAME, NUMBER, STATUS, "summary") once per code: the
 * constant every stage passes to diag_error, the three-digit number shown as
 * E<NUMBER> in rendered diagnostics, the kjit_status a call fails with when
 * it is the call's first error (STATUS names a DiagStatus below, which the
 * runtime maps one-to-one onto kjit.h's KJIT_ERROR_<STATUS>), and the line
 * docs/diagnostics.md shows (scripts/gen_diag_docs.sh writes that page from
 * this table).  Families: E0xx files, API arguments, the CUDA target and
 * CUDA C; E1xx lexer and parser; E2xx names and unsupported Python; E3xx
 * typing; E4xx signatures, options and launches; E5xx code generation.
 * A number appears once and a name once (tests/unit/test_diag_codes.c); no
 * other file assigns a number to an E_ constant (tests/lint_diag_codes.sh). */
#ifndef KJIT_COMMON_DIAG_CODES_H
#define KJIT_COMMON_DIAG_CODES_H

/* The statuses a diagnostic code can give, named as kjit.h's KJIT_ERROR_*
 * (common/ does not include kjit.h; runtime/context.c checks at compile time
 * that each name exists there and that none of kjit.h's errors is missing). */
#define DIAG_STATUSES(S)                                                       \
  S(INVALID_ARGUMENT)                                                          \
  S(IO)                                                                        \
  S(SYNTAX)                                                                    \
  S(TYPE)                                                                      \
  S(NOT_FOUND)                                                                 \
  S(CODEGEN)                                                                   \
  S(NO_DEVICE)                                                                 \
  S(INTERNAL)                                                                  \
  S(OUT_OF_MEMORY)                                                             \
  S(KERNEL_FAULT)

typedef enum DiagStatus {
#define S(name) DS_##name,
  DIAG_STATUSES(S)
#undef S
  DS_COUNT
} DiagStatus;

#define DIAG_CODES(X)                                                          \
  /* ---- E0xx: files and API arguments (runtime/runtime.h) ---- */           \
  X(RT_E_IO,               1, IO,               "a file cannot be read or written") \
  X(RT_E_ARGUMENT,         2, INVALID_ARGUMENT, "a bad argument value at the API (options, handles, counts)") \
  X(RT_W_CACHE,            3, IO,               "a warning: the disk cache is misconfigured or unusable; compiles go on without it") \
  X(RT_W_CACHE_TRUST,      4, IO,               "a warning: a cache folder, entry or key another user could have written is not used (docs/cache.md, Security)") \
  X(RT_W_SETTING,          5, IO,               "a warning: an environment setting that is not a valid value; its default is used") \
  X(RT_W_TUNE,             6, IO,               "a warning: a stored launch-configuration record (kjit tune) that is corrupt or invalid; it is ignored and removed") \
  /* ---- E06x: the CUDA target (runtime/cuda.h) ---- */                      \
  X(RT_E_CUDA_NO_DEVICE,  60, NO_DEVICE,        "no CUDA driver, no device, or a device ordinal out of range") \
  X(RT_E_CUDA_DRIVER,     61, NO_DEVICE,        "a CUDA driver call failed") \
  X(RT_E_CUDA_LINK,       62, CODEGEN,          "PTX to cubin failed (nvJitLink or the driver's JIT)") \
  X(RT_E_CUDA_LAUNCH,     63, INVALID_ARGUMENT, "a launch on the GPU refused: counts, types, limits") \
  X(RT_E_CUDA_FAULT,      64, KERNEL_FAULT,      "a kernel faulted on the GPU (illegal address, trap, failed debug check)") \
  X(RT_E_CUDA_NOMEM,      65, OUT_OF_MEMORY,    "device memory exhausted") \
  X(RT_E_CUDA_BAD_DEVICE, 66, NO_DEVICE,        "GPUs exist, but not the device asked for") \
  X(RT_E_CUDA_DEAD,       67, KERNEL_FAULT,     "the CUDA context is unusable after an earlier fault that kjit did not reset") \
  X(RT_E_CUDA_MEMORY,     68, INVALID_ARGUMENT, "a pointer that is not device memory of the context's device, or too small") \
  X(RT_E_CUDA_STREAM,     69, INVALID_ARGUMENT, "a stream that is invalid, of another context, or captured with what capture forbids") \
  /* ---- E07x: CUDA C files and kernels (runtime/nvrtc.h, runtime/cuc.h) ---- */ \
  X(RT_E_NVRTC_MISSING,   70, CODEGEN,          "NVRTC cannot be loaded") \
  X(RT_E_NVRTC_COMPILE,   71, CODEGEN,          "a CUDA C file does not compile") \
  X(RT_E_LINK_FILE,       72, CODEGEN,          "a link= file is missing or unreadable") \
  X(RT_E_LINK,            73, CODEGEN,          "nvJitLink failed or is missing for linking") \
  X(RT_E_CUC_KERNEL,      74, NOT_FOUND,        "no CUDA C kernel of that name, or a template without arguments") \
  X(RT_E_CUC_PARAM,       75, TYPE,             "a CUDA C parameter type kjit cannot pass") \
  X(RT_E_CUC_ARG,         76, TYPE,             "an argument does not fit its CUDA C parameter") \
  X(RT_E_CUC_OPTION,      77, INVALID_ARGUMENT, "an NVRTC option kjit does not pass") \
  X(RT_E_CUC_TARGET,      78, INVALID_ARGUMENT, "the cpu target cannot run CUDA C") \
  /* ---- E1xx: lexer and parser (frontend/) ---- */                          \
  X(E_BAD_CHAR,          101, SYNTAX,           "an invalid character, a NUL byte or bad UTF-8") \
  X(E_UNTERMINATED_STR,  102, SYNTAX,           "an unterminated string literal") \
  X(E_UNTERMINATED_TRIPLE, 103, SYNTAX,         "an unterminated triple-quoted string") \
  X(E_UNCLOSED_BRACKET,  104, SYNTAX,           "a bracket never closed") \
  X(E_UNMATCHED_BRACKET, 105, SYNTAX,           "a closing bracket without an opening one") \
  X(E_MISMATCHED_BRACKET, 106, SYNTAX,          "a closing bracket of the wrong kind") \
  X(E_DEDENT,            107, SYNTAX,           "an unindent that matches no outer level") \
  X(E_TAB_SPACE,         108, SYNTAX,           "inconsistent use of tabs and spaces") \
  X(E_BAD_NUMBER,        109, SYNTAX,           "a malformed number (leading zeros, bad digits)") \
  X(E_BAD_ESCAPE,        110, SYNTAX,           "a truncated \\x or \\u escape") \
  X(E_CONTINUATION,      111, SYNTAX,           "a character after a line-continuation backslash") \
  X(E_FSTRING,           112, SYNTAX,           "a malformed or too deeply nested f-string") \
  X(E_SYNTAX,            120, SYNTAX,           "invalid syntax") \
  X(E_EXPECTED,          121, SYNTAX,           "an expected token is missing (':', ')', ...)") \
  X(E_UNEXPECTED_INDENT, 122, SYNTAX,           "an unexpected indent") \
  X(E_EXPECTED_INDENT,   123, SYNTAX,           "an indented block is missing") \
  X(E_BAD_TARGET,        124, SYNTAX,           "cannot assign to this expression") \
  X(E_BAD_ARGS,          125, SYNTAX,           "arguments or parameters in the wrong order") \
  X(E_TOO_DEEP,          126, SYNTAX,           "nesting past the parser's depth limit") \
  /* ---- E2xx: names and unsupported Python (ir/lower*.c, ir/modlink.c) ---- */ \
  X(E_UNDEFINED,         201, TYPE,             "a name that is not defined") \
  X(E_UNSUPPORTED,       202, TYPE,             "a construct kernels do not support") \
  X(E_NOTCONST,          203, TYPE,             "a global or shape that is not a compile-time constant") \
  X(E_ARITY,             204, TYPE,             "a wrong number or kind of builtin arguments") \
  X(E_KERNEL_RET,        205, TYPE,             "a kernel that returns a value") \
  X(E_NOATTR,            206, TYPE,             "a module without that attribute (cuda.foo)") \
  X(E_TARGET,            207, TYPE,             "a bad assignment target or unpacking count") \
  X(E_STRING,            208, TYPE,             "a string outside print") \
  X(E_CALLEE,            209, TYPE,             "calling a kernel, a host function or a variable") \
  X(E_LINK,              210, TYPE,             "a bad link= list or cuda.declare_device") \
  X(E_BIGINT,            211, TYPE,             "an integer literal too large for int64") \
  X(E_NOTYET,            212, TYPE,             "a Numba feature kjit does not support yet") \
  X(E_LOOP,              213, TYPE,             "for, break or continue misused") \
  X(E_BADARG,            214, TYPE,             "an argument of the wrong kind (dtype, shape, ...)") \
  X(E_UFUNC,             215, TYPE,             "@vectorize: a bad body, signature or option") \
  X(E_REDUCE,            216, TYPE,             "a @cuda.reduce function misused") \
  X(E_MODULE,            231, TYPE,             "an imported module that cannot be used") \
  /* ---- E3xx: typing (ir/infer*.c) ---- */                                   \
  X(E_TY_UNIFY,          301, TYPE,             "a variable or return value with two types") \
  X(E_TY_OPERANDS,       302, TYPE,             "no typing for an operator with these operands") \
  X(E_TY_INDEX,          303, TYPE,             "a bad array or tuple index") \
  X(E_TY_UNDEFINED,      304, TYPE,             "a local referenced before assignment") \
  X(E_TY_RECURSION,      305, TYPE,             "a recursive call") \
  X(E_TY_NARGS,          306, TYPE,             "a wrong argument count") \
  X(E_TY_ANNOTATION,     307, TYPE,             "an argument that does not match its annotation") \
  X(E_TY_RETURN,         308, TYPE,             "a kernel returning a value, or a bad return type") \
  X(E_TY_ATOMIC,         309, TYPE,             "a bad atomic operation") \
  X(E_TY_INTRINSIC,      310, TYPE,             "bad arguments to a math, builtin or cuda function") \
  X(E_TY_UNKNOWN,        311, TYPE,             "a type that could not be inferred") \
  X(E_TY_CONVERGE,       312, TYPE,             "type inference did not reach a fixed point") \
  X(E_TY_ATTR,           313, TYPE,             "an unknown attribute of a type") \
  X(E_TY_CALL,           314, TYPE,             "a bad call target") \
  X(E_TY_CONVERT,        315, TYPE,             "an impossible conversion") \
  X(E_TY_COND,           316, TYPE,             "a value without truthiness used as a condition") \
  X(E_TY_PRINT,          317, TYPE,             "a value print cannot show") \
  X(E_TY_READONLY,       318, TYPE,             "a store or atomic into a read-only (constant) array") \
  X(E_TY_UNBOUND,        319, TYPE,             "a global the host binds was not bound") \
  X(E_TY_TOO_LARGE,      320, TYPE,             "a function over IR_MAX_BLOCKS basic blocks") \
  /* ---- E4xx: signatures, options and launches ---- */                      \
  X(E_SIG_UNKNOWN_TYPE,  401, TYPE,             "an unknown type in a signature") \
  X(E_SIG_SYNTAX,        402, SYNTAX,           "a malformed signature string") \
  X(E_SIG_DIMS,          403, TYPE,             "bad array dimensions in a signature") \
  X(E_SIG_EMPTY,         404, TYPE,             "an empty signature") \
  X(E_SIG_SLICE,         405, TYPE,             "a bad slice in a signature's array type") \
  X(E_OPTION,            406, TYPE,             "an unknown or invalid decorator option") \
  X(E_AOT_OPTION,        407, INVALID_ARGUMENT, "a bad kjit aot option (library name, targets)") \
  X(RT_E_AMBIGUOUS,      488, TYPE,             "arguments that fit two eager signatures equally well") \
  X(RT_E_PARAM_SPACE,    489, TYPE,             "a kernel's parameters exceed CUDA's 4 KiB") \
  X(RT_E_NO_KERNEL,      490, NOT_FOUND,        "no kernel of that name") \
  X(RT_E_NO_SIGNATURE,   491, TYPE,             "a lazy kernel compiled without a signature") \
  X(RT_E_NOT_VOID,       492, TYPE,             "a kernel signature that returns a value") \
  X(RT_E_ARITY,          493, TYPE,             "signature and parameter counts differ") \
  X(RT_E_ARCH,           494, INVALID_ARGUMENT, "an unknown GPU architecture") \
  X(RT_E_LAUNCH_ARGS,    495, TYPE,             "a launch argument of the wrong count, type, layout or memory") \
  X(RT_E_LAUNCH_LIMIT,   496, TYPE,             "a launch past the grid, block or shared-memory limits") \
  X(RT_E_LAUNCH_FAILED,  497, INTERNAL,         "the CPU executor failed a launch (a deadlock at a barrier, no memory for stacks)") \
  X(RT_E_KERNEL_FAULT,   498, KERNEL_FAULT,      "a kernel faulted on the CPU (illegal address, failed debug check), as E064 on the GPU") \
  X(RT_E_NO_TUNING,      499, NOT_FOUND,        "no usable tuning record (kjit tune) for this kernel specialization, device and shape class") \
  /* ---- E5xx: code generation ---- */                                       \
  X(E_CG_LIBDEVICE,      501, CODEGEN,          "libdevice missing or unreadable") \
  X(E_CG_LLVM,           502, CODEGEN,          "an LLVM target, pass or emission failure") \
  X(E_CG_UNSUPPORTED,    503, CODEGEN,          "a construct this target cannot lower yet") \
  X(E_CG_PTX_VERSION,    504, CODEGEN,          "the SM needs a newer PTX ISA than allowed") \
  X(E_AOT_UNSUPPORTED,   505, CODEGEN,          "a kernel or parameter kjit aot cannot put into a C library (the reason is named)") \
  X(E_INTERNAL,          599, INTERNAL,         "a bug in kjit (malformed IR, a call failed without a diagnostic)")

/* The codes as constants: E_TY_UNIFY == 301. */
enum DiagCode {
#define X(name, num, status, summary) name = num,
  DIAG_CODES(X)
#undef X
};

#endif
