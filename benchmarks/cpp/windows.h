/* The console calls of a Windows build, as no-ops, so the library links on other systems. */
typedef unsigned long DWORD;
typedef void *HANDLE;
#define CP_UTF8 65001
#define STD_OUTPUT_HANDLE 0
#define ENABLE_PROCESSED_OUTPUT 1
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 4
static inline int SetConsoleOutputCP(unsigned) { return 1; }
static inline HANDLE GetStdHandle(int) { return 0; }
static inline int GetConsoleMode(HANDLE, DWORD *mode) { *mode = 0; return 1; }
static inline int SetConsoleMode(HANDLE, DWORD) { return 1; }
