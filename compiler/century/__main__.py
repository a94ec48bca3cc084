from century.cli import main

main()
