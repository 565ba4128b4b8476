/* skyisles island: embeds the default codex pack (SKYISLES_PAK_PATH, set by mk/island.mk).
 * Plain GNU as directives, so native and cross compilers assemble it alike. */
    .section .rodata
    .balign 16
    .globl skyisles_pak_data
    .globl skyisles_pak_end
skyisles_pak_data:
    .incbin SKYISLES_PAK_PATH
skyisles_pak_end:
    .byte 0
    .section .note.GNU-stack,"",%progbits
